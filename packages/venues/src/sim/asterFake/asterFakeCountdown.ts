import { VenueAccountNotFoundError } from '@dn/core'
import { param } from './asterFakeAuth.js'
import { mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import type { AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

/**
 * `POST /fapi/v3/countdownCancelAll` (TRADE): at the end of
 * `countdownTime` ms every open order of the user on `symbol` is
 * cancelled (status CANCELED [unverified]: the doc names no status; it is
 * Binance's, whose endpoint this copies) — resting ones by the engine,
 * waiting conditional ones by the fake (`asterFakeTriggers.ts`); a new
 * call replaces the countdown and 0 stops it. Answers `{symbol, countdownTime}` as the doc
 * shows it (the time as a string).
 */
export function countdownCancelAll(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  filtersOf(state, symbol)
  const raw = param(pairs, 'countdownTime')
  if (raw === undefined || !/^\d{1,15}$/.test(raw)) {
    throw mandatory('countdownTime')
  }
  const ms = Number(raw)
  if (ms === 0) state.countdowns.delete(`${user}|${symbol}`)
  else state.countdowns.set(`${user}|${symbol}`, state.now() + ms)
  try {
    state.exchange.scheduleCancel(
      user,
      ms === 0 ? null : state.now() + ms,
      symbol,
    )
  } catch (e) {
    // no account yet: no orders to cancel
    if (!(e instanceof VenueAccountNotFoundError)) throw e
  }
  return { symbol, countdownTime: raw }
}
