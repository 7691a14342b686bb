import { type Decimal, dec, decString } from '@dn/core'
import { accountExists, type HlFakeState } from './hlFakeState.js'
import { HlFieldError } from './hlInfoMarket.js'

/**
 * `userFills` / `userFillsByTime` / `userFunding` in the venue's shapes,
 * from the engine's fills and funding payments of the orders the fake
 * placed.
 *
 * @module
 */

/** Hyperliquid answers at most this many fills per request. */
export const FILLS_PAGE = 2000

/**
 * The user's fills in [start, end], oldest first, in the venue's shape.
 * `startPosition` and `dir` follow the position each fill found, from
 * every fill of the fake's orders since the account began (a liquidation
 * by the engine is not a fill of theirs, so it is not counted).
 */
export function userFills(
  state: HlFakeState,
  u: string,
  start: number,
  end: number,
) {
  if (!accountExists(state, u)) return []
  const byEngineId = new Map(
    [...state.ordersByOid.values()]
      .filter((o) => o.user === u)
      .map((o) => [o.engineId, o]),
  )
  const held = new Map<string, Decimal>()
  return state.exchange.fills(u, 0).flatMap((f) => {
    const rec = byEngineId.get(f.clientOrderId)
    if (!rec) return []
    const before = held.get(rec.coin) ?? dec(0)
    const qty = rec.side === 'B' ? dec(f.size) : dec(f.size).neg()
    held.set(rec.coin, before.add(qty))
    if (f.time < start || f.time > end) return []
    return [
      {
        coin: rec.coin,
        px: f.price,
        sz: f.size,
        side: rec.side,
        time: f.time,
        startPosition: decString(before),
        dir: direction(before, qty),
        closedPnl: f.realizedPnl,
        hash: `0x${f.tradeId.toString(16).padStart(64, '0')}`,
        oid: rec.oid,
        crossed: !f.maker,
        // the venue's fee is all the fill paid, the builder's part included
        // (a mainnet fill: fee 5.32 bps of notional = 4.5 less the 4 %
        // referral discount, plus a 1 bp builderFee); builderFee repeats
        // that part, between fee and tid, only when a builder was named
        fee:
          f.builderFee === undefined
            ? f.fee
            : decString(dec(f.fee).add(f.builderFee)),
        ...(f.builderFee === undefined ? {} : { builderFee: f.builderFee }),
        tid: f.tradeId,
        feeToken: 'USDC',
        ...(rec.cloid ? { cloid: rec.cloid } : {}),
      },
    ]
  })
}

/** The venue's `dir` of a fill of signed `qty` on a position `before`. */
function direction(before: Decimal, qty: Decimal): string {
  const after = before.add(qty)
  if (before.isZero() || before.isPositive() === qty.isPositive()) {
    return qty.isPositive() ? 'Open Long' : 'Open Short'
  }
  if (after.isZero() || after.isPositive() === before.isPositive()) {
    return before.isPositive() ? 'Close Long' : 'Close Short'
  }
  return before.isPositive() ? 'Long > Short' : 'Short > Long'
}

/**
 * `userFunding`: the user's funding payments in [startTime, endTime],
 * oldest first, as `{time, hash, delta: {type: 'funding', …}}`.
 * @throws HlFieldError when `startTime` is not a number
 */
export function userFunding(
  state: HlFakeState,
  u: string,
  startTime: unknown,
  endTime: unknown,
) {
  if (typeof startTime !== 'number') {
    throw new HlFieldError('startTime')
  }
  if (!accountExists(state, u)) return []
  const end = typeof endTime === 'number' ? endTime : Number.POSITIVE_INFINITY
  const since = new Date(startTime).toISOString()
  return state.exchange
    .listed()
    .flatMap((r) => state.exchange.funding(u, r.symbol, since))
    .map((p) => ({ p, time: Date.parse(p.time) }))
    .filter(({ time }) => time <= end)
    .sort((a, b) => a.time - b.time)
    .map(({ p, time }) => ({
      time,
      hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
      delta: {
        type: 'funding',
        coin: p.market,
        usdc: p.amountUsd,
        szi: p.positionSize,
        fundingRate: p.rate,
        nSamples: null,
      },
    }))
}
