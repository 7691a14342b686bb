import {
  HL_APPROVE_AGENT_TYPE,
  HL_APPROVE_BUILDER_FEE_TYPE,
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from '../../hyperliquid/binding/approveAgentRequest.js'
import { recoverL1Signer } from '../../hyperliquid/signing/l1Signature.js'
import type { HlSignature } from '../../hyperliquid/signing/signerAccount.js'
import {
  type HlTypedDataTypes,
  type HlUserSignedActionObject,
  recoverUserSignedSigner,
} from '../../hyperliquid/signing/userSignedAction.js'
import { builderFeeTenths } from './hlBuilderFees.js'
import { cancelHlOrders } from './hlCancel.js'
import {
  accountExists,
  approveAgent,
  approveBuilderFee,
  type HlFakeState,
  useNonce,
  userOfSigner,
} from './hlFakeState.js'
import { updateHlLeverage } from './hlLeverage.js'
import { modifyHlOrders } from './hlModify.js'
import { placeHlOrders } from './hlPlaceOrder.js'
import { setHlReferrer } from './hlReferrer.js'
import { scheduleCancel } from './hlScheduleCancel.js'

type Json = Record<string, unknown>
const ZERO = '0x0000000000000000000000000000000000000000'
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
/**
 * r and s are hex numbers: the official python SDK (`signing.to_hex`) and
 * ccxt drop leading zero nibbles, and the venue takes their requests, so
 * any 1 to 64 digits are read (and left-padded before recovery).
 */
const SIG_HEX = /^0x[0-9a-fA-F]{1,64}$/

/** Hyperliquid's EIP-712 types, taken from the binding (one source). */
const APPROVE_AGENT_TYPES = hlApproveAgentRequest({
  agentAddress: ZERO,
  agentName: '',
  nonce: 1,
}).payload.types as HlTypedDataTypes
const APPROVE_BUILDER_FEE_TYPES = hlApproveBuilderFeeRequest({
  builder: ZERO,
  nonce: 1,
}).payload.types as HlTypedDataTypes

const L1_ACTIONS = new Set([
  'order',
  'cancel',
  'cancelByCloid',
  'modify',
  'batchModify',
  'updateLeverage',
  'updateIsolatedMargin',
  'scheduleCancel',
  'noop',
  'setReferrer',
])

const err = (response: string) => ({ status: 'err', response })

/**
 * Answers one `/exchange` request: `{status:'ok', response}` or
 * `{status:'err', response:'<text>'}`. Never throws for a bad request.
 */
export async function handleExchange(
  state: HlFakeState,
  body: Json,
): Promise<unknown> {
  const action = body.action as Json | undefined
  const nonce = body.nonce
  const signature = body.signature as HlSignature | undefined
  if (
    !action ||
    typeof action !== 'object' ||
    typeof action.type !== 'string'
  ) {
    return err(
      'Failed to deserialize the JSON body into the target type: action',
    )
  }
  if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce)) {
    return err(
      'Failed to deserialize the JSON body into the target type: nonce',
    )
  }
  if (
    !signature ||
    typeof signature.r !== 'string' ||
    typeof signature.s !== 'string' ||
    !SIG_HEX.test(signature.r) ||
    !SIG_HEX.test(signature.s) ||
    (signature.v !== 27 && signature.v !== 28)
  ) {
    return err(
      'Failed to deserialize the JSON body into the target type: signature',
    )
  }
  const sig: HlSignature = {
    r: `0x${signature.r.slice(2).padStart(64, '0')}`,
    s: `0x${signature.s.slice(2).padStart(64, '0')}`,
    v: signature.v,
  }
  if (L1_ACTIONS.has(action.type)) {
    return l1(state, body, action, nonce, sig)
  }
  if (action.type === 'approveAgent' || action.type === 'approveBuilderFee') {
    return userSigned(state, action, nonce, sig)
  }
  return err(
    `Failed to deserialize the JSON body into the target type: action: unknown variant \`${action.type}\``,
  )
}

async function l1(
  state: HlFakeState,
  body: Json,
  action: Json,
  nonce: number,
  signature: HlSignature,
) {
  const vault = body.vaultAddress ?? null
  const expiresAfter = body.expiresAfter ?? undefined
  if (vault !== null && (typeof vault !== 'string' || !ADDRESS.test(vault))) {
    return err(
      'Failed to deserialize the JSON body into the target type: vaultAddress',
    )
  }
  if (expiresAfter !== undefined && typeof expiresAfter !== 'number') {
    return err(
      'Failed to deserialize the JSON body into the target type: expiresAfter',
    )
  }
  let signer: string
  try {
    signer = (
      await recoverL1Signer({
        action,
        vaultAddress: vault,
        nonce,
        expiresAfter,
        isMainnet: state.isMainnet,
        signature,
      })
    ).toLowerCase()
  } catch {
    return err('Invalid signature.')
  }
  const user = userOfSigner(state, signer)
  if (!user) return err(`User or API Wallet ${signer} does not exist.`)
  if (vault !== null) return err(`Vault not registered: ${vault.toLowerCase()}`)
  if (expiresAfter !== undefined && expiresAfter < state.now()) {
    return err(`Action expired: expiresAfter ${expiresAfter} is in the past`)
  }
  const bad = useNonce(state, signer, nonce)
  if (bad) return err(bad)
  state.actionsByUser.set(user, (state.actionsByUser.get(user) ?? 0) + 1)
  switch (action.type) {
    case 'order':
      return placeHlOrders(state, user, action)
    case 'cancel':
    case 'cancelByCloid':
      return cancelHlOrders(state, user, action)
    case 'modify':
    case 'batchModify':
      return modifyHlOrders(state, user, action)
    case 'updateLeverage':
    case 'updateIsolatedMargin':
      return updateHlLeverage(state, user, action)
    case 'noop':
      // spends the nonce and nothing else (nktkas `noop`)
      return { status: 'ok', response: { type: 'default' } }
    case 'setReferrer':
      return setHlReferrer(state, user, action)
    default:
      return scheduleCancel(state, user, action)
  }
}

async function userSigned(
  state: HlFakeState,
  action: Json,
  nonce: number,
  signature: HlSignature,
) {
  const isAgent = action.type === 'approveAgent'
  if (action.nonce !== nonce) {
    return err(
      'Failed to deserialize the JSON body into the target type: nonce mismatch',
    )
  }
  if (
    typeof action.signatureChainId !== 'string' ||
    typeof action.hyperliquidChain !== 'string'
  ) {
    return err(
      'Failed to deserialize the JSON body into the target type: signatureChainId',
    )
  }
  // python signs `agentName: ""` and then drops the key from the post
  const signed = (
    isAgent ? { ...action, agentName: action.agentName ?? '' } : action
  ) as HlUserSignedActionObject
  let signer: string
  try {
    signer = (
      await recoverUserSignedSigner({
        action: signed,
        types: isAgent ? APPROVE_AGENT_TYPES : APPROVE_BUILDER_FEE_TYPES,
        primaryType: isAgent
          ? HL_APPROVE_AGENT_TYPE
          : HL_APPROVE_BUILDER_FEE_TYPE,
        isMainnet: state.isMainnet,
        signature,
      })
    ).toLowerCase()
  } catch (e) {
    return err(e instanceof RangeError ? e.message : 'Invalid signature.')
  }
  if (!accountExists(state, signer)) {
    return err(`User or API Wallet ${signer} does not exist.`)
  }
  const bad = useNonce(state, signer, nonce)
  if (bad) return err(bad)
  if (isAgent) {
    const agent = signed.agentAddress
    const name = signed.agentName
    if (
      typeof agent !== 'string' ||
      !ADDRESS.test(agent) ||
      typeof name !== 'string'
    ) {
      return err(
        'Failed to deserialize the JSON body into the target type: agentAddress',
      )
    }
    if (agent.toLowerCase() === signer)
      return err('Agent address cannot be the user.')
    approveAgent(state, signer, agent, name)
  } else {
    const builder = signed.builder
    const rate = signed.maxFeeRate
    if (typeof builder !== 'string' || !ADDRESS.test(builder)) {
      return err(
        'Failed to deserialize the JSON body into the target type: builder',
      )
    }
    const tenths = typeof rate === 'string' ? builderFeeTenths(rate) : null
    if (tenths === null) return err('Invalid max fee rate.')
    approveBuilderFee(state, signer, builder, tenths)
  }
  return { status: 'ok', response: { type: 'default' } }
}
