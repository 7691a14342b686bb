import { isObj } from '../../wire/jsonFields.js'
import { cancelHlOrder } from './hlCancel.js'
import type { HlFakeState } from './hlFakeState.js'
import { findHlOrder, HlOidFieldError } from './hlInfoOrders.js'
import { isOpen } from './hlOrderWire.js'
import { type HlOrderStatus, placeHlOrder } from './hlPlaceOrder.js'

type Json = Record<string, unknown>

/**
 * The venue's answer to modifying an order that no longer rests (quoted
 * by several public integrations, e.g. in their handling of modify
 * races; also seen with a trailing period [unverified which is current]).
 */
const CANNOT_MODIFY = 'Cannot modify canceled or filled order'

const err = (response: string) => ({ status: 'err', response })

/**
 * Answers a verified `modify` (`{oid, order}`) or `batchModify`
 * (`{modifies: [{oid, order}]}`); `oid` is a number or a cloid. A modify
 * cancels the resting order and places `order` in its place, as the venue
 * describes it; the new order gets a new oid [unverified: whether the
 * venue keeps the old oid], and its cloid then names the new order.
 * `modify` answers `{type:'default'}` or a top-level error (nktkas types
 * it `SuccessResponse | ErrorResponse`); `batchModify` answers like
 * `order`, one status per modify.
 */
export function modifyHlOrders(
  state: HlFakeState,
  user: string,
  action: Json,
): unknown {
  if (action.type === 'modify') {
    const status = modifyOne(state, user, action)
    if ('error' in status) return err(status.error)
    return { status: 'ok', response: { type: 'default' } }
  }
  const modifies = action.modifies
  if (
    !Array.isArray(modifies) ||
    modifies.length === 0 ||
    !modifies.every(isObj)
  ) {
    return err(
      'Failed to deserialize the JSON body into the target type: modifies',
    )
  }
  const statuses = modifies.map((m: Json) => modifyOne(state, user, m))
  return { status: 'ok', response: { type: 'order', data: { statuses } } }
}

function modifyOne(state: HlFakeState, user: string, m: Json): HlOrderStatus {
  const order = m.order
  if (!isObj(order)) {
    return {
      error: 'Failed to deserialize the JSON body into the target type: order',
    }
  }
  let rec: ReturnType<typeof findHlOrder>
  try {
    rec = findHlOrder(state, user, m.oid)
  } catch (e) {
    if (e instanceof HlOidFieldError) return { error: e.message }
    throw e
  }
  if (!rec || !isOpen(state, rec)) return { error: CANNOT_MODIFY }
  const cancelled = cancelHlOrder(state, rec)
  if (cancelled !== 'success') return { error: CANNOT_MODIFY }
  const wire = order as Json
  // the engine keeps one order per client id: a reused cloid needs a new one
  const engineId = `hlfake-${user}-${state.nextPlain++}`
  // the new order keeps the builder the old one named [unverified]
  return placeHlOrder(state, user, wire, engineId, rec.builder)
}
