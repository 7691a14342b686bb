import { dec, decString } from '@dn/core'
import { param } from './asterFakeAuth.js'
import { orderOfEngineId } from './asterFakeEngineLegs.js'
import { invalidParam, mandatory } from './asterFakeError.js'
import { type AsterFakeState, hasAccount } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

/** Aster answers at most this many trades; 500 when `limit` is absent. */
const MAX_LIMIT = 1000
const DEFAULT_LIMIT = 500
/** `startTime`..`endTime` may span at most 7 days. */
const MAX_WINDOW_MS = 7 * 86_400_000

/**
 * `GET /fapi/v3/userTrades`: the account's fills on `symbol`, oldest
 * first, optionally of one `orderId`, from `fromId`, or in a time window
 * (the last 7 days by default), with the commission each paid.
 */
export function userTrades(state: AsterFakeState, user: string, pairs: Pairs) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  const limit = Number(param(pairs, 'limit') ?? DEFAULT_LIMIT)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalidParam('limit')
  }
  const orderId = param(pairs, 'orderId')
  const fromId = param(pairs, 'fromId')
  const now = state.now()
  const end = Number(param(pairs, 'endTime') ?? now)
  const start = Number(param(pairs, 'startTime') ?? end - MAX_WINDOW_MS)
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) {
    throw invalidParam('startTime')
  }
  if (end - start > MAX_WINDOW_MS) throw invalidParam('endTime')
  if (!hasAccount(state, user)) return []
  const since = orderId !== undefined || fromId !== undefined ? 0 : start
  return state.exchange
    .fills(user, since)
    .filter((f) => f.market === symbol)
    .filter((f) => (fromId === undefined ? true : f.tradeId >= Number(fromId)))
    .filter((f) =>
      orderId !== undefined || fromId !== undefined
        ? true
        : f.time >= start && f.time <= end,
    )
    .flatMap((f) => {
      const o = orderOfEngineId(state, user, f.clientOrderId)
      if (!o) return []
      if (orderId !== undefined && String(o.orderId) !== orderId) return []
      const buyer = o.side === 'BUY'
      return [
        {
          buyer,
          commission: f.fee,
          commissionAsset: 'USDT',
          id: f.tradeId,
          maker: f.maker,
          orderId: o.orderId,
          price: f.price,
          qty: f.size,
          quoteQty: quoteQty(f.price, f.size),
          realizedPnl: f.realizedPnl,
          side: o.side,
          positionSide: 'BOTH',
          symbol,
          time: f.time,
        },
      ]
    })
    .slice(0, limit)
}

function quoteQty(price: string, size: string): string {
  return decString(dec(price).mul(size))
}
