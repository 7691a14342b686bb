import { dec, type FundingPayment } from '@dn/core'
import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import {
  int,
  invalidParam,
  limit,
  marketFilter,
  oneOf,
  optInt,
  type Query,
} from './lighterFakeQuery.js'
import {
  type LighterFakeMarket,
  type LighterFakeState,
  marketById,
} from './lighterFakeState.js'

const OK = { code: 200 }
const EPOCH = new Date(0).toISOString()
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000)

/** An account's funding payments on a market, oldest first. */
function paymentsOf(
  state: LighterFakeState,
  owner: string,
  m: LighterFakeMarket,
): FundingPayment[] {
  return state.exchange.funding(owner, m.symbol, EPOCH)
}

/**
 * `positionFunding`: the account's funding payments (auth token of the
 * account required), filtered by `market_id` / `market_ids`, `side`,
 * `start_timestamp` / `end_timestamp` (Unix s), newest `limit`, oldest
 * first. `funding_id` and `discount` are 0: the fake has no ids for
 * settlements and no fee discounts. No pagination (`cursor`).
 */
export function positionFunding(
  state: LighterFakeState,
  q: Query,
  token: string,
) {
  const account = int(q, 'account_index')
  requireLighterAuthToken(state, account, token)
  const n = limit(q, 100)
  const one = marketFilter(q)
  const many = (q.get('market_ids') ?? '')
    .split(',')
    .filter(Boolean)
    .map((v) => {
      if (!/^\d+$/.test(v)) throw invalidParam('market_ids')
      return Number(v)
    })
  const side = oneOf(q, 'side', ['long', 'short', 'all'] as const, 'all')
  const from = optInt(q, 'start_timestamp', 0)
  const to = optInt(q, 'end_timestamp', Number.MAX_SAFE_INTEGER)
  const owner = state.exchange.ownerOf(account) ?? ''
  const rows = state.markets
    .filter(
      (m) =>
        (one === null || m.marketId === one) &&
        (many.length === 0 || many.includes(m.marketId)),
    )
    .flatMap((m) =>
      paymentsOf(state, owner, m).map((p) => ({
        timestamp: seconds(p.time),
        market_id: m.marketId,
        funding_id: 0,
        change: p.amountUsd,
        rate: p.rate,
        position_size: dec(p.positionSize).abs().toFixed(),
        position_side: dec(p.positionSize).isNegative() ? 'short' : 'long',
        discount: '0',
      })),
    )
    .filter(
      (r) =>
        r.timestamp >= from &&
        r.timestamp <= to &&
        (side === 'all' || r.position_side === side),
    )
    .sort((a, b) => a.timestamp - b.timestamp)
  return { ...OK, position_fundings: rows.slice(-n) }
}

const HOUR_MS = 3_600_000
const RESOLUTIONS = { '1h': HOUR_MS, '1d': 24 * HOUR_MS } as const
/** The most rows one `fundings` read answers [the fake's cap]. */
const MAX_FUNDINGS = 1000

/**
 * `fundings`: a market's settled funding rates (the engine's, every
 * settlement, whoever held a position), the newest `count_back` (when
 * positive, else up to 1000) of those in `[start_timestamp,
 * end_timestamp]` (Unix s), oldest first; `1d` keeps each day's last
 * settlement. `rate` is the settled rate's size as applied to a position
 * (a fraction of the notional, as `positionFunding` gives it),
 * `direction` the side that paid (`long` when the rate is positive),
 * `value` 0 [unverified: the spec does not say what it holds].
 */
export function fundings(state: LighterFakeState, q: Query) {
  const m = marketById(state, int(q, 'market_id'))
  const resolution = oneOf(q, 'resolution', ['1h', '1d'] as const)
  const from = int(q, 'start_timestamp') * 1000
  const to = int(q, 'end_timestamp') * 1000
  const countBack = int(q, 'count_back')
  if (!m) {
    throw new LighterFakeError(FAKE_CODES.invalidMarket, 'invalid market index')
  }
  const width = RESOLUTIONS[resolution]
  const keep = countBack > 0 ? Math.min(countBack, MAX_FUNDINGS) : MAX_FUNDINGS
  const end = Math.min(to, state.now())
  const start = Math.max(from, end - keep * width)
  const interval = state.exchange.fundingIntervalMs
  const settled = state.exchange.fundingRates(
    m.symbol,
    start,
    end,
    Math.ceil((end - start) / interval) + 1,
  )
  const byBucket = new Map<number, { time: number; rate: string }>()
  for (const r of settled) byBucket.set(Math.floor(r.time / width), r)
  const rows = [...byBucket.values()].slice(-keep).map((r) => {
    const applied = dec(r.rate).mul(interval).div(HOUR_MS)
    return {
      timestamp: Math.floor(r.time / 1000),
      value: '0',
      rate: applied.abs().toFixed(),
      direction: applied.isNegative() ? 'short' : 'long',
    }
  })
  return { ...OK, resolution, fundings: rows }
}
