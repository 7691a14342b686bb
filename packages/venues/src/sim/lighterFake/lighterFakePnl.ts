import { dec } from '@dn/core'
import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { int, oneOf, type Query } from './lighterFakeQuery.js'
import type { LighterFakeState } from './lighterFakeState.js'

const MINUTE_S = 60
const RESOLUTIONS = {
  '1m': MINUTE_S,
  '5m': 5 * MINUTE_S,
  '15m': 15 * MINUTE_S,
  '1h': 60 * MINUTE_S,
  '4h': 240 * MINUTE_S,
  '1d': 1440 * MINUTE_S,
} as const
type Resolution = keyof typeof RESOLUTIONS

/** A timestamp given in s or ms (told apart by size), in seconds. */
const toSeconds = (v: number) => (v > 1e11 ? Math.floor(v / 1000) : v)

/**
 * `pnl?by=index&value=<account>`: the account's trading PnL per bucket
 * of `resolution` (auth token of the account required), buckets with
 * activity only, oldest first, the newest `count_back` when positive.
 * `trade_pnl` is the bucket's realized PnL less fees plus funding,
 * `volume` its traded notional [unverified: whether the venue's figures
 * are per bucket or running totals]. Times in Unix s (the query's may be
 * s or ms). Not modelled, so 0: transfers in and out, spot, pools,
 * staking.
 */
export function accountPnl(state: LighterFakeState, q: Query, token: string) {
  oneOf(q, 'by', ['index'] as const)
  const account = int(q, 'value')
  requireLighterAuthToken(state, account, token)
  const resolution = oneOf(
    q,
    'resolution',
    Object.keys(RESOLUTIONS) as Resolution[],
  )
  const from = toSeconds(int(q, 'start_timestamp'))
  const to = toSeconds(int(q, 'end_timestamp'))
  const countBack = int(q, 'count_back')
  const width = RESOLUTIONS[resolution]
  const owner = state.exchange.ownerOf(account) ?? ''
  const buckets = new Map<number, { pnl: string; volume: string }>()
  const add = (timeS: number, pnl: string, volume: string) => {
    if (timeS < from || timeS > to) return
    const t = Math.floor(timeS / width) * width
    const b = buckets.get(t) ?? { pnl: '0', volume: '0' }
    buckets.set(t, {
      pnl: dec(b.pnl).add(pnl).toFixed(),
      volume: dec(b.volume).add(volume).toFixed(),
    })
  }
  for (const f of state.exchange.fills(owner, 0)) {
    add(
      Math.floor(f.time / 1000),
      dec(f.realizedPnl).sub(f.fee).toFixed(),
      dec(f.size).mul(f.price).toFixed(),
    )
  }
  for (const m of state.markets) {
    for (const p of state.exchange.funding(
      owner,
      m.symbol,
      new Date(0).toISOString(),
    )) {
      add(Math.floor(Date.parse(p.time) / 1000), p.amountUsd, '0')
    }
  }
  const rows = [...buckets]
    .sort(([a], [b]) => a - b)
    .map(([timestamp, b]) => ({
      timestamp,
      trade_pnl: Number(b.pnl),
      trade_spot_pnl: 0,
      inflow: 0,
      outflow: 0,
      spot_outflow: 0,
      spot_inflow: 0,
      pool_pnl: 0,
      pool_inflow: 0,
      pool_outflow: 0,
      staking_pnl: 0,
      staking_inflow: 0,
      staking_outflow: 0,
      pool_total_shares: 0,
      staked_lit: 0,
      volume: Number(b.volume),
    }))
  return {
    code: 200,
    resolution,
    pnl: countBack > 0 ? rows.slice(-countBack) : rows,
  }
}
