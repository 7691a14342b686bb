import { dec, decString } from '@dn/core'
import type { AsterFakeBar, AsterFakeState } from './asterFakeState.js'

/** A bar's width: klines are built from minute bars. */
export const BAR_MS = 60_000
/** Bars older than this are dropped (a 24 h ticker and a day of klines). */
const KEEP_MS = 25 * 3_600_000

/** Adds `price` at `now` to the symbol's minute bars. */
function addMark(tape: AsterFakeBar[], now: number, price: string): void {
  const t = Math.floor(now / BAR_MS) * BAR_MS
  const bar = tape[tape.length - 1]
  if (bar && bar.t === t) {
    if (dec(price).gt(bar.h)) bar.h = price
    if (dec(price).lt(bar.l)) bar.l = price
    bar.c = price
    return
  }
  tape.push({ t, o: price, h: price, l: price, c: price })
  while ((tape[0]?.t ?? t) < t - KEEP_MS) tape.shift()
}

/**
 * Records what the fake sees of the engine at a request: each listed
 * symbol's mark, in minute bars (klines and 24 h tickers are built from
 * them), and the funding rate it publishes for the next settlement (the
 * funding history), as `premiumIndex` shows it. The engine keeps no price
 * history, so the fake knows only marks seen while it served requests.
 */
export function observeMarks(state: AsterFakeState): void {
  const now = state.now()
  const nextFunding = state.exchange.nextFundingAt()
  for (const r of state.exchange.listed()) {
    const q = state.exchange.quote(r.symbol)
    let tape = state.tape.get(r.symbol)
    if (!tape) {
      tape = []
      state.tape.set(r.symbol, tape)
    }
    addMark(tape, now, q.mark)
    let seen = state.fundingSeen.get(r.symbol)
    if (!seen) {
      seen = new Map()
      state.fundingSeen.set(r.symbol, seen)
    }
    seen.set(nextFunding, publishedFundingRate(q.fundingRateHourly))
    for (const t of seen.keys()) if (t < now - KEEP_MS) seen.delete(t)
  }
}

/**
 * The engine settles funding every hour (or `--funding-interval`); the
 * fake publishes an 8 h interval with the rate scaled to it, so `rate /
 * interval` is the engine's hourly rate (as on Aster, where intervals are
 * 8 h or 4 h).
 */
export const FAKE_FUNDING_INTERVAL_HOURS = 8

/** The rate Aster's funding fields show for the engine's hourly rate. */
export function publishedFundingRate(hourly: string): string {
  return decString(dec(hourly).mul(FAKE_FUNDING_INTERVAL_HOURS))
}
