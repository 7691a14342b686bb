import { dec } from '@dn/core'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { int, oneOf, type Query } from './lighterFakeQuery.js'
import { type LighterFakeState, marketById } from './lighterFakeState.js'
import { lighterFakeTrades } from './lighterFakeTrades.js'

const MINUTE = 60_000
const RESOLUTIONS = {
  '1m': MINUTE,
  '5m': 5 * MINUTE,
  '15m': 15 * MINUTE,
  '30m': 30 * MINUTE,
  '1h': 60 * MINUTE,
  '4h': 240 * MINUTE,
  '12h': 720 * MINUTE,
  '1d': 1440 * MINUTE,
} as const
type Resolution = keyof typeof RESOLUTIONS

/** The most candles one read answers (df-lighter-core `CANDLES_PER_CALL`). */
const MAX_CANDLES = 500

/**
 * `candles`: the market's trades the fake knows, in buckets of
 * `resolution` that open in `[start_timestamp, end_timestamp]` (Unix ms,
 * as ccxt sends them), oldest first, the newest `count_back` when it is
 * positive, at most 500. Buckets without a trade are left out. `t` opens
 * the bucket (ms); `o h l c` are prices, `v` base and `V` quote volume,
 * `i` the last trade id. `O H L C` (doubles in the spec, meaning not
 * documented) repeat `o h l c` [unverified]. `set_timestamp_to_end` is
 * not modelled.
 */
export function candles(state: LighterFakeState, q: Query) {
  const id = int(q, 'market_id')
  const resolution = oneOf(
    q,
    'resolution',
    Object.keys(RESOLUTIONS) as Resolution[],
  )
  const start = int(q, 'start_timestamp')
  const end = int(q, 'end_timestamp')
  const countBack = int(q, 'count_back')
  if (!marketById(state, id)) {
    throw new LighterFakeError(FAKE_CODES.invalidMarket, 'invalid market index')
  }
  const width = RESOLUTIONS[resolution]
  const buckets = new Map<
    number,
    { p: number[]; v: number; V: number; i: number }
  >()
  for (const { fill } of lighterFakeTrades(state, id)) {
    const t = Math.floor(fill.time / width) * width
    if (t < start || t > end) continue
    const b = buckets.get(t) ?? { p: [], v: 0, V: 0, i: 0 }
    b.p.push(Number(fill.price))
    b.v = dec(b.v).add(fill.size).toNumber()
    b.V = dec(b.V).add(dec(fill.size).mul(fill.price)).toNumber()
    b.i = fill.tradeId
    buckets.set(t, b)
  }
  const rows = [...buckets].map(([t, b]) => {
    const o = b.p[0] ?? 0
    const c = b.p.at(-1) ?? 0
    const h = Math.max(...b.p)
    const l = Math.min(...b.p)
    return { t, o, h, l, c, O: o, H: h, L: l, C: c, v: b.v, V: b.V, i: b.i }
  })
  const keep = Math.min(countBack > 0 ? countBack : MAX_CANDLES, MAX_CANDLES)
  return { code: 200, r: resolution, c: rows.slice(-keep) }
}
