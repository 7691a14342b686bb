import { VenueRejectedError } from '@dn/core'
import { isObj } from '../../wire/jsonFields.js'
import { marketOfAsset } from './hlDexes.js'
import type { HlFakeOrder, HlFakeState } from './hlFakeState.js'

type Json = Record<string, unknown>

/** The venue's per-cancel answer when there is nothing left to cancel. */
const NOT_FOUND = {
  error: 'Order was never placed, already canceled, or filled.',
}

const err = (response: string) => ({ status: 'err', response })

/**
 * Answers a verified `cancel` (`cancels: [{a, o}]`, by oid) or
 * `cancelByCloid` (`cancels: [{asset, cloid}]`) action: one status per
 * cancel, `"success"` or `{error}`, in a `{type:'cancel'}` response.
 */
export function cancelHlOrders(
  state: HlFakeState,
  user: string,
  action: Json,
): unknown {
  const cancels = action.cancels
  if (
    !Array.isArray(cancels) ||
    cancels.length === 0 ||
    !cancels.every(isObj)
  ) {
    return err(
      'Failed to deserialize the JSON body into the target type: cancels',
    )
  }
  const byCloid = action.type === 'cancelByCloid'
  const statuses = cancels.map((c: Json) => {
    const rules = marketOfAsset(state, byCloid ? c.asset : c.a)
    if (!rules) return { error: 'Asset not found.' }
    let oid: number | undefined
    if (byCloid) {
      const cloid = typeof c.cloid === 'string' ? c.cloid.toLowerCase() : ''
      oid = state.oidByCloid.get(`${user}|${cloid}`)
    } else if (typeof c.o === 'number') oid = c.o
    const rec = oid === undefined ? undefined : state.ordersByOid.get(oid)
    if (rec?.user !== user || rec.coin !== rules.symbol) return NOT_FOUND
    return cancelHlOrder(state, rec)
  })
  return { status: 'ok', response: { type: 'cancel', data: { statuses } } }
}

/**
 * Cancels one recorded order: a waiting trigger is dropped, a resting
 * engine order cancelled; anything else was never there to cancel.
 */
export function cancelHlOrder(
  state: HlFakeState,
  rec: HlFakeOrder,
): 'success' | { error: string } {
  const trig = state.triggers.get(rec.oid)
  if (trig && trig.status !== 'triggered') {
    if (trig.status !== 'waitingForTrigger') return NOT_FOUND
    state.triggers.set(rec.oid, { status: 'canceled', at: state.now() })
    return 'success'
  }
  const before = state.exchange.order(rec.user, rec.engineId, rec.coin)
  if (before?.state !== 'open' && before?.state !== 'partially_filled') {
    return NOT_FOUND
  }
  try {
    const view = state.exchange.cancel(rec.user, rec.engineId, rec.coin)
    return view.state === 'cancelled' ? 'success' : NOT_FOUND
  } catch (e) {
    if (e instanceof VenueRejectedError) return { error: e.reason }
    throw e
  }
}
