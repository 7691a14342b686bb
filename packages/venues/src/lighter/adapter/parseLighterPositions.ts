import { dec, decString, type VenuePosition } from '@dn/core'
import {
  badAnswer,
  decField,
  intField,
  isObj,
  type Json,
} from './lighterWireValue.js'

/**
 * Positions of `account?by=index`: Lighter reports an unsigned `position`
 * with `sign` 1 / -1, `initial_margin_fraction` as a percentage string
 * (leverage = 100 / fraction; assumed from public client types, not
 * confirmed by Lighter's docs) and `margin_mode` 0 cross / 1 isolated.
 *
 * @throws {VenueUnavailableError} on an answer of the wrong shape.
 */
export function parseLighterPositions(
  raw: Json,
  symbolOf: (marketId: number) => string | undefined,
): VenuePosition[] {
  const account = Array.isArray(raw.accounts) ? raw.accounts[0] : undefined
  if (!isObj(account) || !Array.isArray(account.positions)) {
    throw badAnswer('account', raw)
  }
  return parseLighterPositionRows(account.positions, symbolOf, 'account', raw)
}

/**
 * `Position` rows (the REST `account` read's, or the `account_all`
 * stream's, which have the same fields) as positions; flat rows and
 * markets with no symbol are left out.
 *
 * @throws {VenueUnavailableError} on a row of the wrong shape.
 */
export function parseLighterPositionRows(
  rows: readonly unknown[],
  symbolOf: (marketId: number) => string | undefined,
  what: string,
  raw: unknown,
): VenuePosition[] {
  const out: VenuePosition[] = []
  for (const p of rows) {
    if (!isObj(p)) throw badAnswer(what, raw)
    const size = decField(p.position)
    const sign = intField(p.sign)
    const marketId = intField(p.market_id)
    if (size === null || marketId === null) throw badAnswer(what, raw)
    if (dec(size).isZero()) continue
    const market =
      symbolOf(marketId) ?? (typeof p.symbol === 'string' ? p.symbol : null)
    if (market === null) continue
    const value = decField(p.position_value) ?? '0'
    const imf = decField(p.initial_margin_fraction)
    const liq = decField(p.liquidation_price)
    out.push({
      market,
      size: sign === -1 ? decString(dec(size).neg()) : size,
      entryPrice: decField(p.avg_entry_price) ?? '0',
      markPrice: decString(dec(value).abs().div(dec(size).abs())),
      leverage:
        imf !== null && dec(imf).gt(0)
          ? decString(dec(100).div(imf).toDecimalPlaces(4))
          : '1',
      marginMode: intField(p.margin_mode) === 1 ? 'isolated' : 'cross',
      liquidationPrice: liq !== null && dec(liq).gt(0) ? liq : null,
    })
  }
  return out
}
