import {
  dec,
  decString,
  type TimeInForce,
  VenueAccountNotFoundError,
  VenueRejectedError,
} from '@dn/core'
import {
  HL_APPROVE_AGENT_TYPE,
  HL_APPROVE_BUILDER_FEE_TYPE,
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from '../../hyperliquid/binding/approveAgentRequest.js'
import { isValidHlPrice } from '../../hyperliquid/precision/formatHlPrice.js'
import { recoverL1Signer } from '../../hyperliquid/signing/l1Signature.js'
import type { HlSignature } from '../../hyperliquid/signing/signerAccount.js'
import {
  type HlTypedDataTypes,
  type HlUserSignedActionObject,
  recoverUserSignedSigner,
} from '../../hyperliquid/signing/userSignedAction.js'
import { marketOfAsset } from './hlDexes.js'
import {
  accountExists,
  approveAgent,
  type HlFakeState,
  useNonce,
  userOfSigner,
} from './hlFakeState.js'
import { hlStatus, stepDecimals } from './hlInfo.js'
import { scheduleCancel } from './hlScheduleCancel.js'

type Json = Record<string, unknown>
const ZERO = '0x0000000000000000000000000000000000000000'
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const CLOID = /^0x[0-9a-fA-F]{32}$/
const SIG_HEX = /^0x[0-9a-fA-F]{64}$/

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

const L1_ACTIONS = new Set(['order', 'cancelByCloid', 'scheduleCancel'])

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
  if (L1_ACTIONS.has(action.type)) {
    return l1(state, body, action, nonce, signature)
  }
  if (action.type === 'approveAgent' || action.type === 'approveBuilderFee') {
    return userSigned(state, action, nonce, signature)
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
  if (action.type === 'order') return order(state, user, action)
  if (action.type === 'cancelByCloid') return cancelByCloid(state, user, action)
  return scheduleCancel(state, user, action)
}

function order(state: HlFakeState, user: string, action: Json) {
  const orders = action.orders
  if (!Array.isArray(orders) || orders.length === 0) {
    return err(
      'Failed to deserialize the JSON body into the target type: orders',
    )
  }
  const statuses = orders.map((o: Json) => {
    const rules = marketOfAsset(state, o.a)
    if (!rules) return { error: 'Asset not found.' }
    const szDecimals = stepDecimals(rules.sizeStep)
    const p = typeof o.p === 'string' ? o.p : ''
    const s = typeof o.s === 'string' ? o.s : ''
    if (!isValidHlPrice(p, szDecimals))
      return { error: 'Order has invalid price.' }
    if (!validSize(s, szDecimals)) return { error: 'Order has invalid size.' }
    const tif = (o.t as { limit?: { tif?: string } } | undefined)?.limit?.tif
    const timeInForce: TimeInForce | undefined =
      tif === 'Gtc'
        ? 'gtc'
        : tif === 'Ioc'
          ? 'ioc'
          : tif === 'Alo'
            ? 'post_only'
            : undefined
    if (!timeInForce) return { error: 'Order has invalid time in force.' }
    const cloid =
      typeof o.c === 'string' && CLOID.test(o.c) ? o.c.toLowerCase() : null
    if (o.c !== undefined && cloid === null) {
      return { error: 'Invalid cloid.' }
    }
    const engineId = cloid ?? `hlfake-${user}-${state.nextPlain++}`
    // stamped before it can fill, so its fills never predate it
    const timestamp = state.now()
    let view: ReturnType<typeof state.exchange.place>
    try {
      view = state.exchange.place(user, {
        market: rules.symbol,
        side: o.b === true ? 'long' : 'short',
        size: s,
        price: p,
        timeInForce,
        reduceOnly: o.r === true,
        clientOrderId: engineId,
      })
    } catch (e) {
      if (e instanceof VenueRejectedError) return { error: e.reason }
      if (e instanceof VenueAccountNotFoundError) {
        return { error: 'Insufficient margin to place order.' }
      }
      throw e
    }
    const oid = Number(view.venueOrderId)
    state.ordersByOid.set(oid, {
      user,
      coin: rules.symbol,
      side: o.b === true ? 'B' : 'A',
      limitPx: p,
      origSz: s,
      oid,
      timestamp,
      cloid,
      engineId,
    })
    if (cloid) state.oidByCloid.set(`${user}|${cloid}`, oid)
    const withCloid = cloid ? { cloid } : {}
    const filled = dec(view.filledBase)
    if (view.state === 'filled' || (timeInForce === 'ioc' && filled.gt(0))) {
      return {
        filled: {
          totalSz: view.filledBase,
          avgPx: view.averagePrice ?? p,
          oid,
          ...withCloid,
        },
      }
    }
    if (view.state === 'open' || view.state === 'partially_filled') {
      return { resting: { oid, ...withCloid } }
    }
    if (timeInForce === 'ioc') {
      return {
        error: `Order could not immediately match against any resting orders. asset=${o.a}`,
      }
    }
    return { error: view.reason ?? hlStatus(view) }
  })
  return {
    status: 'ok',
    response: { type: 'order', data: { statuses } },
  }
}

function validSize(s: string, szDecimals: number): boolean {
  if (!/^\d+(\.\d+)?$/.test(s)) return false
  const d = dec(s)
  return d.gt(0) && d.decimalPlaces() <= szDecimals
}

function cancelByCloid(state: HlFakeState, user: string, action: Json) {
  const cancels = action.cancels
  if (!Array.isArray(cancels) || cancels.length === 0) {
    return err(
      'Failed to deserialize the JSON body into the target type: cancels',
    )
  }
  const statuses = cancels.map((c: Json) => {
    const rules = marketOfAsset(state, c.asset)
    if (!rules) return { error: 'Asset not found.' }
    const cloid = typeof c.cloid === 'string' ? c.cloid.toLowerCase() : ''
    const oid = state.oidByCloid.get(`${user}|${cloid}`)
    const rec = oid === undefined ? undefined : state.ordersByOid.get(oid)
    const notFound = {
      error: 'Order was never placed, already canceled, or filled.',
    }
    if (!rec || rec.coin !== rules.symbol) return notFound
    const before = state.exchange.order(user, rec.engineId, rules.symbol)
    if (before?.state !== 'open' && before?.state !== 'partially_filled') {
      return notFound
    }
    try {
      const view = state.exchange.cancel(user, rec.engineId, rules.symbol)
      return view.state === 'cancelled' ? 'success' : notFound
    } catch (e) {
      if (e instanceof VenueRejectedError) return { error: e.reason }
      throw e
    }
  })
  return { status: 'ok', response: { type: 'cancel', data: { statuses } } }
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
    if (typeof rate !== 'string' || !/^\d+(\.\d+)?%$/.test(rate)) {
      return err('Invalid max fee rate.')
    }
    // percent → tenths of a basis point: 0.1% = 10 bp = 100
    const tenths = dec(rate.slice(0, -1)).mul(1000)
    if (!tenths.isInteger()) return err('Invalid max fee rate.')
    state.builderFees.set(
      `${signer}|${builder.toLowerCase()}`,
      Number(decString(tenths)),
    )
  }
  return { status: 'ok', response: { type: 'default' } }
}
