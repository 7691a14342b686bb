import { dec, decString } from '@dn/core'
import { param } from './asterFakeAuth.js'
import { invalidParam } from './asterFakeError.js'
import { type AsterFakeState, hasAccount } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const WEEK_MS = 7 * 86_400_000

/** The income types the engine books (of the doc's list). */
const TYPES = new Set(['FUNDING_FEE', 'COMMISSION', 'REALIZED_PNL'])

interface Row {
  readonly symbol: string
  readonly incomeType: string
  readonly income: string
  readonly time: number
  readonly tranId: string
  readonly tradeId: string
}

/** Funding settlements, as FUNDING_FEE rows. */
function fundingRows(
  state: AsterFakeState,
  user: string,
  markets: readonly string[],
  start: number,
): Row[] {
  return markets.flatMap((m, i) =>
    state.exchange.funding(user, m, new Date(start).toISOString()).map((p) => {
      const t = Date.parse(p.time)
      return {
        symbol: p.market,
        incomeType: 'FUNDING_FEE',
        income: p.amountUsd,
        time: t,
        // unique per type and user: the settlement time and the market
        tranId: `${t}${i}`,
        tradeId: '',
      }
    }),
  )
}

/** Each fill's fee (COMMISSION) and realized PnL (REALIZED_PNL). */
function fillRows(
  state: AsterFakeState,
  user: string,
  markets: readonly string[],
  start: number,
): Row[] {
  return state.exchange
    .fills(user, start)
    .filter((f) => markets.includes(f.market))
    .flatMap((f) => {
      const base = {
        symbol: f.market,
        time: f.time,
        tranId: String(f.tradeId),
        tradeId: String(f.tradeId),
      }
      const rows: Row[] = [
        {
          ...base,
          incomeType: 'COMMISSION',
          income: decString(dec(f.fee).neg()),
        },
      ]
      if (!dec(f.realizedPnl).isZero()) {
        rows.push({
          ...base,
          incomeType: 'REALIZED_PNL',
          income: f.realizedPnl,
        })
      }
      return rows
    })
}

/**
 * `GET /fapi/v3/income` (USER_DATA, weight 30): what the engine booked
 * on the account, as the futures v3 doc's "Get Income History" rows —
 * FUNDING_FEE (funding settlements), COMMISSION (each fill's fee, as a
 * negative income) and REALIZED_PNL (each fill that shrank a position);
 * the engine has no transfers, bonuses or insurance clears. Ascending,
 * `startTime`/`endTime` inclusive (the last 7 days by default), at most
 * `limit` (100, max 1000) from the start.
 */
export function income(state: AsterFakeState, user: string, pairs: Pairs) {
  const type = param(pairs, 'incomeType')
  const limit = Number(param(pairs, 'limit') ?? 100)
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1000) {
    throw invalidParam('limit')
  }
  if (type !== undefined && !TYPES.has(type)) return []
  if (!hasAccount(state, user)) return []
  const symbol = param(pairs, 'symbol')
  const start = Number(param(pairs, 'startTime') ?? state.now() - WEEK_MS)
  const end = Number(param(pairs, 'endTime') ?? Number.MAX_SAFE_INTEGER)
  if (!Number.isFinite(start) || !Number.isFinite(end)) {
    throw invalidParam('startTime')
  }
  const markets =
    symbol === undefined
      ? state.exchange.listed().map((r) => r.symbol)
      : [symbol]
  const rows = [
    ...(type === undefined || type === 'FUNDING_FEE'
      ? fundingRows(state, user, markets, start)
      : []),
    ...(type === undefined || type !== 'FUNDING_FEE'
      ? fillRows(state, user, markets, start)
      : []),
  ]
  return rows
    .filter((r) => type === undefined || r.incomeType === type)
    .filter((r) => r.time >= start && r.time <= end)
    .sort((a, b) => a.time - b.time)
    .slice(0, limit)
    .map((r) => ({
      symbol: r.symbol,
      incomeType: r.incomeType,
      income: r.income,
      asset: 'USDT',
      info: r.incomeType,
      time: r.time,
      tranId: r.tranId,
      tradeId: r.tradeId,
    }))
}
