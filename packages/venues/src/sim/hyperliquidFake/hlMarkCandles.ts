import { dec, decString } from '@dn/core'
import type { HlFakeState } from './hlFakeState.js'

/**
 * Candles on the fake. The engine keeps no price history, so the fake
 * samples every listed mark each time a request reaches it (at most once
 * a second per coin, the newest MAX_SAMPLES kept) and builds
 * `candleSnapshot` from those samples: a candle exists only for an
 * interval in which a request was served, its volume `v` and trade count
 * `n` are 0. The shape is the venue's (nktkas `candleSnapshot`):
 * `{t, T, s, i, o, c, h, l, v, n}` with prices as strings.
 *
 * @module
 */

const MAX_SAMPLES = 20_000
const MIN_GAP_MS = 1_000

/** The venue's candle intervals and their length in ms. */
const INTERVALS: Readonly<Record<string, number>> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '2h': 7_200_000,
  '4h': 14_400_000,
  '8h': 28_800_000,
  '12h': 43_200_000,
  '1d': 86_400_000,
  '3d': 259_200_000,
  '1w': 604_800_000,
  '1M': 2_592_000_000,
}

/** Records the current mark of every listed market. */
export function sampleHlMarks(state: HlFakeState): void {
  const t = state.now()
  for (const r of state.exchange.listed()) {
    const list = state.markSamples.get(r.symbol) ?? []
    const last = list[list.length - 1]
    if (last && t - last.t < MIN_GAP_MS) continue
    list.push({ t, px: state.exchange.quote(r.symbol).mark })
    if (list.length > MAX_SAMPLES) list.splice(0, list.length - MAX_SAMPLES)
    state.markSamples.set(r.symbol, list)
  }
}

/** The interval's length in ms; undefined for one the venue lacks. */
export function candleIntervalMs(interval: unknown): number | undefined {
  return typeof interval === 'string' ? INTERVALS[interval] : undefined
}

/** Candles of `coin` opening in [start, end], oldest first. */
export function hlCandles(
  state: HlFakeState,
  coin: string,
  interval: string,
  start: number,
  end: number,
) {
  const ms = INTERVALS[interval] ?? 60_000
  const out: {
    t: number
    T: number
    s: string
    i: string
    o: string
    c: string
    h: string
    l: string
    v: string
    n: number
  }[] = []
  for (const { t, px } of state.markSamples.get(coin) ?? []) {
    const open = Math.floor(t / ms) * ms
    if (open < Math.floor(start / ms) * ms || open > end) continue
    const c = out[out.length - 1]
    if (c?.t === open) {
      c.c = px
      if (dec(px).gt(c.h)) c.h = px
      if (dec(px).lt(c.l)) c.l = px
      continue
    }
    out.push({
      t: open,
      T: open + ms - 1,
      s: coin,
      i: interval,
      o: px,
      c: px,
      h: px,
      l: px,
      v: decString(dec(0)),
      n: 0,
    })
  }
  return out
}
