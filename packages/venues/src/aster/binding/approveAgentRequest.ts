import { getAddress } from 'viem'
import {
  requireAddress,
  requireSafeInteger,
  type TypedDataSignRequest,
  ZERO_ADDRESS,
} from '../../binding/signRequestKinds.js'

/**
 * Aster's builder-fee cap for 0.1%, as Aster writes fee rates: a decimal
 * fraction (`"0.00001"` is 0.001%, `"0.005"` is 0.5%), not a percent.
 */
export const ASTER_MAX_BUILDER_FEE_RATE = '0.001'

/**
 * The `signatureChainId` (domain chain id) for main-wallet actions: 56, as
 * in Aster's own demo (`demo/aster-code.py`) and the EVM value documented
 * for `registerAndApproveAgent`.
 */
export const ASTER_SIGNATURE_CHAIN_ID = 56

/**
 * The ApproveAgent struct in the contract's order. Aster builds the type
 * from the posted parameters: each name with its first letter upper-cased,
 * bool for booleans, uint256 for integers, string for everything else.
 */
const AGENT_FIELDS = [
  { name: 'AgentName', type: 'string' },
  { name: 'AgentAddress', type: 'string' },
  { name: 'IpWhitelist', type: 'string' },
  { name: 'Expired', type: 'uint256' },
  { name: 'CanSpotTrade', type: 'bool' },
  { name: 'CanPerpTrade', type: 'bool' },
  { name: 'CanWithdraw', type: 'bool' },
] as const
const BUILDER_FIELDS = [
  { name: 'Builder', type: 'string' },
  { name: 'MaxFeeRate', type: 'string' },
  { name: 'BuilderName', type: 'string' },
] as const
const TAIL_FIELDS = [
  { name: 'AsterChain', type: 'string' },
  { name: 'User', type: 'string' },
  { name: 'Nonce', type: 'uint256' },
] as const

export interface AsterApproveAgentInput {
  /** the main wallet (`User`) */
  readonly owner: string
  readonly agentAddress: string
  readonly agentName: string
  /** microsecond nonce */
  readonly nonce: number
  /** agent expiry, Unix ms */
  readonly expired: number
  /** embed the builder and its 0.1% fee cap in the approval */
  readonly feeApproval: boolean
  /** required when `feeApproval` */
  readonly builder?: string | undefined
  /** required when `feeApproval` */
  readonly builderName?: string | undefined
  /** `AsterChain` */
  readonly chain: 'Mainnet' | 'Testnet'
  /** @default 56 */
  readonly signatureChainId?: number | undefined
}

/**
 * `aster:approveAgent`: the main wallet authorizes a perp-only agent (no
 * spot, no withdrawal, no IP whitelist) and, with fee approval, the builder
 * with a 0.1% cap in the same signature. Addresses are checksummed strings
 * (the struct types them as `string`, so the worker must post exactly these
 * values). Without fee approval the three builder fields are left out of
 * the type and the message, as Aster builds the struct from the parameters
 * actually sent. The worker posts each message value under its lower-cased
 * name plus `signature` and `signatureChainId` (= `domain.chainId`).
 * @throws RangeError on a bad address, integer or missing builder fields
 */
export function asterApproveAgentRequest(
  input: AsterApproveAgentInput,
): TypedDataSignRequest {
  const chainId = requireSafeInteger(
    'signatureChainId',
    input.signatureChainId ?? ASTER_SIGNATURE_CHAIN_ID,
    1,
  )
  const agent = {
    AgentName: input.agentName,
    AgentAddress: getAddress(
      requireAddress('agentAddress', input.agentAddress),
    ),
    IpWhitelist: '',
    Expired: requireSafeInteger('expired', input.expired, 1),
    CanSpotTrade: false,
    CanPerpTrade: true,
    CanWithdraw: false,
  }
  const tail = {
    AsterChain: input.chain,
    User: getAddress(requireAddress('owner', input.owner)),
    Nonce: requireSafeInteger('nonce', input.nonce, 1),
  }
  const fields = input.feeApproval
    ? [...AGENT_FIELDS, ...BUILDER_FIELDS, ...TAIL_FIELDS]
    : [...AGENT_FIELDS, ...TAIL_FIELDS]
  const message = input.feeApproval
    ? { ...agent, ...builderFields(input), ...tail }
    : { ...agent, ...tail }
  return {
    requestId: 'aster:approveAgent',
    venue: 'aster',
    action: 'approveAgent',
    method: 'eth_signTypedData_v4',
    payload: {
      domain: {
        name: 'AsterSignTransaction',
        version: '1',
        chainId,
        verifyingContract: ZERO_ADDRESS,
      },
      types: { ApproveAgent: fields },
      primaryType: 'ApproveAgent',
      message,
    },
  }
}

function builderFields(input: AsterApproveAgentInput) {
  if (input.builder === undefined || !input.builderName) {
    throw new RangeError('fee approval needs builder and builderName')
  }
  return {
    Builder: getAddress(requireAddress('builder', input.builder)),
    MaxFeeRate: ASTER_MAX_BUILDER_FEE_RATE,
    BuilderName: input.builderName,
  }
}
