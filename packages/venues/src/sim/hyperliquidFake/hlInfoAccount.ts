import { type Decimal, dec, decString } from '@dn/core'
import { usd as usdOf } from '../fillOrder.js'
import { venueStyle } from '../venueStyle.js'
import { isolatedRawUsd } from './hlClearinghouseState.js'
import { accountExists, type HlFakeState } from './hlFakeState.js'
import { stepDecimals } from './hlOrderWire.js'

/**
 * Account reads in the venue's shapes (nktkas `userFees`, `userRateLimit`,
 * `activeAssetData`, `portfolio`):
 * - `userFees`: the engine's flat tier-0 rates (`sim/venueStyle.ts`),
 *   no VIP or maker tiers, referral or staking discounts; daily volumes
 *   from the user's fills.
 * - `userRateLimit`: `cumVlm` = traded notional; `nRequestsUsed` = L1
 *   actions the fake accepted from the user (all agents included);
 *   `nRequestsCap` = 10000 + 1 per USDC traded (docs "rate-limits"). The
 *   fake does not refuse over that cap.
 * - `activeAssetData`: leverage and mode as the engine keeps them; the
 *   max trade size and available-to-trade from free margin x leverage.
 * - `portfolio`: one point (now) of account value per window; PnL and
 *   volume from fills in the window. No history of account value.
 *
 * @module
 */

const DAY = 86_400_000
const WINDOWS: readonly (readonly [string, number])[] = [
  ['day', DAY],
  ['week', 7 * DAY],
  ['month', 30 * DAY],
  ['allTime', Number.POSITIVE_INFINITY],
]

function fillsOf(state: HlFakeState, u: string, since: number) {
  if (!accountExists(state, u)) return []
  const from = Number.isFinite(since) ? Math.max(0, state.now() - since) : 0
  return state.exchange.fills(u, from)
}

function volume(state: HlFakeState, u: string, since: number): Decimal {
  let v = dec(0)
  for (const f of fillsOf(state, u, since)) v = v.add(dec(f.price).mul(f.size))
  return v
}

const usd = (d: Decimal) => decString(usdOf(d))

/** `userFees` of `u`. */
export function userFees(state: HlFakeState, u: string) {
  const { taker, maker } = venueStyle('hl').fees
  const byDay = new Map<string, Decimal>()
  for (const f of fillsOf(state, u, 14 * DAY)) {
    const date = new Date(f.time).toISOString().slice(0, 10)
    byDay.set(date, (byDay.get(date) ?? dec(0)).add(dec(f.price).mul(f.size)))
  }
  return {
    dailyUserVlm: [...byDay].map(([date, v]) => ({
      date,
      userCross: usd(v),
      userAdd: '0.0',
      exchange: usd(v),
    })),
    feeSchedule: {
      cross: taker,
      add: maker,
      spotCross: taker,
      spotAdd: maker,
      tiers: { vip: [], mm: [] },
      referralDiscount: '0.0',
      stakingDiscountTiers: [],
    },
    userCrossRate: taker,
    userAddRate: maker,
    userSpotCrossRate: taker,
    userSpotAddRate: maker,
    activeReferralDiscount: '0.0',
    trial: null,
    feeTrialEscrow: '0.0',
    nextTrialAvailableTimestamp: null,
    stakingLink: null,
    activeStakingDiscount: { bpsOfMaxSupply: '0.0', discount: '0.0' },
  }
}

/** `userRateLimit` of `u`. */
export function userRateLimit(state: HlFakeState, u: string) {
  const cumVlm = volume(state, u, Number.POSITIVE_INFINITY)
  return {
    cumVlm: usd(cumVlm),
    nRequestsUsed: state.actionsByUser.get(u) ?? 0,
    nRequestsCap: 10_000 + Math.floor(cumVlm.toNumber()),
    nRequestsSurplus: 0,
  }
}

/** `activeAssetData` of `u` on `coin`. */
export function activeAssetData(state: HlFakeState, u: string, coin: string) {
  const rules = state.exchange.rules(coin)
  const mark = state.exchange.quote(coin).mark
  if (!rules || !accountExists(state, u)) {
    return {
      user: u,
      coin,
      leverage: {
        type: 'cross',
        value: Math.min(10, rules?.maxLeverage ?? 10),
      },
      maxTradeSzs: ['0.0', '0.0'],
      availableToTrade: ['0.0', '0.0'],
      markPx: mark,
    }
  }
  const s = state.exchange.leverage(u, coin)
  const free = dec(state.exchange.account(u).freeMarginUsd)
  const ntl = free.gt(0) ? free.mul(s.leverage) : dec(0)
  const size = decString(
    ntl.div(mark).toDecimalPlaces(stepDecimals(rules.sizeStep), 1),
  )
  const position = state.exchange.positions(u).find((p) => p.market === coin)
  return {
    user: u,
    coin,
    leverage:
      s.marginMode === 'isolated'
        ? {
            type: 'isolated',
            value: s.leverage,
            rawUsd: position
              ? isolatedRawUsd(
                  dec(state.exchange.isolatedMargin(u, coin)),
                  position.size,
                  position.entryPrice,
                )
              : '0.0',
          }
        : { type: 'cross', value: s.leverage },
    maxTradeSzs: [size, size],
    availableToTrade: [usd(ntl), usd(ntl)],
    markPx: mark,
  }
}

/** `portfolio` of `u`: every window, total then perp-only. */
export function portfolio(state: HlFakeState, u: string) {
  const now = state.now()
  const value = accountExists(state, u)
    ? state.exchange.account(u).crossEquityUsd
    : '0.0'
  const windows = WINDOWS.map(([name, ms]) => {
    let pnl = dec(0)
    for (const f of fillsOf(state, u, ms)) {
      // builder fees are paid out of the account like the exchange fee
      pnl = pnl
        .add(f.realizedPnl)
        .sub(f.fee)
        .sub(f.builderFee ?? 0)
    }
    return [
      name,
      {
        accountValueHistory: [[now, value]],
        pnlHistory: [[now, usd(pnl)]],
        vlm: usd(volume(state, u, ms)),
      },
    ] as const
  })
  const perp = windows.map(
    ([name, data]) =>
      [`perp${name[0]?.toUpperCase()}${name.slice(1)}`, data] as const,
  )
  return [...windows, ...perp]
}

/**
 * `userAbstraction`: the fake has plain perp accounts only (no unified or
 * portfolio margin), an account that never chose one: `default` (one of
 * nktkas `UserAbstractionResponse`) [unverified which word the venue
 * gives such an account]. ccxt reads it when it starts.
 */
export function userAbstraction(): string {
  return 'default'
}
