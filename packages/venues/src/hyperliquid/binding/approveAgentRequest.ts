import {
  requireAddress,
  requireSafeInteger,
  type TypedDataSignRequest,
  ZERO_ADDRESS,
} from '../../binding/signRequestKinds.js'

/** The contract's default wallet chain for `hl` user-signed actions. */
export const HL_DEFAULT_SIGNATURE_CHAIN_ID = 42161

/** The builder-fee cap the service asks for: 0.1% (a percent string). */
export const HL_MAX_BUILDER_FEE_RATE = '0.1%'

/** Hyperliquid's cap on an agent name, not counting ` valid_until <ms>`. */
const MAX_AGENT_NAME = 16

/** Hyperliquid's primary type names of the two user-signed actions. */
export const HL_APPROVE_AGENT_TYPE = 'HyperliquidTransaction:ApproveAgent'
export const HL_APPROVE_BUILDER_FEE_TYPE =
  'HyperliquidTransaction:ApproveBuilderFee'

/*
 * EIP-712 field lists in Hyperliquid's order (the hash depends on it).
 * Source: hyperliquid-python-sdk `utils/signing.py` `sign_agent`,
 * `sign_approve_builder_fee`; nktkas/hyperliquid `ApproveAgentTypes`.
 */
const APPROVE_AGENT_FIELDS = [
  { name: 'hyperliquidChain', type: 'string' },
  { name: 'agentAddress', type: 'address' },
  { name: 'agentName', type: 'string' },
  { name: 'nonce', type: 'uint64' },
] as const

const APPROVE_BUILDER_FEE_FIELDS = [
  { name: 'hyperliquidChain', type: 'string' },
  { name: 'maxFeeRate', type: 'string' },
  { name: 'builder', type: 'address' },
  { name: 'nonce', type: 'uint64' },
] as const

interface UserSignedCommon {
  /** ms timestamp; also the `nonce` of the posted request */
  readonly nonce: number
  /** the chain the wallet signs with @default 42161 */
  readonly signatureChainId?: number | undefined
  /** `hyperliquidChain` 'Testnet' instead of 'Mainnet' @default false */
  readonly testnet?: boolean | undefined
}

export interface HlApproveAgentInput extends UserSignedCommon {
  readonly agentAddress: string
  /** at most 16 characters before an optional ` valid_until <ms>` */
  readonly agentName: string
}

export interface HlApproveBuilderFeeInput extends UserSignedCommon {
  readonly builder: string
  /** percent string @default '0.1%' */
  readonly maxFeeRate?: string | undefined
}

/**
 * `hl:approveAgent`: the owner authorizes an agent key. The message is the
 * action Hyperliquid receives (`type`, `signatureChainId` as hex included;
 * keys outside the type do not enter the EIP-712 hash), so the worker posts
 * `payload.message` as the action and `nonce` as the request nonce.
 * @throws RangeError on a bad address, name, nonce or chain id
 */
export function hlApproveAgentRequest(
  input: HlApproveAgentInput,
): TypedDataSignRequest {
  const agentAddress = requireAddress(
    'agentAddress',
    input.agentAddress,
  ).toLowerCase()
  const baseName = input.agentName.replace(/ valid_until \d+$/, '')
  if (baseName.length > MAX_AGENT_NAME) {
    throw new RangeError(
      `agentName must be at most ${MAX_AGENT_NAME} characters: ${input.agentName}`,
    )
  }
  const c = common(input)
  return {
    requestId: 'hl:approveAgent',
    venue: 'hl',
    action: 'approveAgent',
    method: 'eth_signTypedData_v4',
    payload: {
      domain: c.domain,
      types: { [HL_APPROVE_AGENT_TYPE]: APPROVE_AGENT_FIELDS },
      primaryType: HL_APPROVE_AGENT_TYPE,
      message: {
        type: 'approveAgent',
        signatureChainId: c.signatureChainId,
        hyperliquidChain: c.hyperliquidChain,
        agentAddress,
        agentName: input.agentName,
        nonce: c.nonce,
      },
    },
  }
}

/**
 * `hl:approveBuilderFee`: the owner caps the builder's fee (issued only when
 * fee approval is enabled). Signed by the owner, never by the agent.
 * @throws RangeError on a bad address, rate, nonce or chain id
 */
export function hlApproveBuilderFeeRequest(
  input: HlApproveBuilderFeeInput,
): TypedDataSignRequest {
  const builder = requireAddress('builder', input.builder).toLowerCase()
  const maxFeeRate = input.maxFeeRate ?? HL_MAX_BUILDER_FEE_RATE
  if (!/^\d+(\.\d+)?%$/.test(maxFeeRate)) {
    throw new RangeError(`maxFeeRate must be a percent string: ${maxFeeRate}`)
  }
  const c = common(input)
  return {
    requestId: 'hl:approveBuilderFee',
    venue: 'hl',
    action: 'approveBuilderFee',
    method: 'eth_signTypedData_v4',
    payload: {
      domain: c.domain,
      types: { [HL_APPROVE_BUILDER_FEE_TYPE]: APPROVE_BUILDER_FEE_FIELDS },
      primaryType: HL_APPROVE_BUILDER_FEE_TYPE,
      message: {
        type: 'approveBuilderFee',
        signatureChainId: c.signatureChainId,
        hyperliquidChain: c.hyperliquidChain,
        maxFeeRate,
        builder,
        nonce: c.nonce,
      },
    },
  }
}

function common(input: UserSignedCommon) {
  const chainId = requireSafeInteger(
    'signatureChainId',
    input.signatureChainId ?? HL_DEFAULT_SIGNATURE_CHAIN_ID,
    1,
  )
  return {
    nonce: requireSafeInteger('nonce', input.nonce, 1),
    signatureChainId: `0x${chainId.toString(16)}`,
    hyperliquidChain: input.testnet ? 'Testnet' : 'Mainnet',
    domain: {
      name: 'HyperliquidSignTransaction',
      version: '1',
      chainId,
      verifyingContract: ZERO_ADDRESS,
    },
  }
}
