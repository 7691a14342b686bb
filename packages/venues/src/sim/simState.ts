import {
  type Clock,
  type Decimal,
  dec,
  type FundingPayment,
  type MarginMode,
  VenueAccountNotFoundError,
  type VenueId,
  VenueRejectedError,
} from '@dn/core'
import { createBasisWalk } from './createBasisWalk.js'
import { createMarkWalk, type MarkWalk } from './createMarkWalk.js'
import { hashSeed, seededRandom } from './seededRandom.js'
import type { SimMarket } from './simMarkets.js'
import type { SimOrder } from './simOrder.js'
import type { SimBook } from './syntheticBook.js'
import type { UnderlyingPrices } from './underlyingPrices.js'
import { type VenueStyle, venueStyle } from './venueStyle.js'

/** Funding settles at every UTC hour boundary unless told otherwise. */
export const HOUR_MS = 3_600_000

/** A net position; `size` is signed (positive long). */
export interface SimPosition {
  size: Decimal
  entry: Decimal
  /** margin reserved out of collateral; zero for a cross position */
  isolatedMargin: Decimal
}

export interface SimSettings {
  readonly leverage: number
  readonly marginMode: MarginMode
}

/** A forced close by the simulated liquidation engine. */
export interface SimLiquidation {
  readonly market: string
  readonly time: string
  /** signed size that was closed */
  readonly size: string
  readonly price: string
  readonly marginMode: MarginMode
  /** loss taken (negative), after the cap at the margin at risk */
  readonly pnlUsd: string
}

export interface SimAccount {
  readonly owner: string
  readonly accountIndex: number
  /** cash: deposits + realized PnL + funding (isolated margin is inside) */
  collateral: Decimal
  readonly positions: Map<string, SimPosition>
  readonly settings: Map<string, SimSettings>
  readonly funding: FundingPayment[]
  readonly liquidations: SimLiquidation[]
}

export interface SimTaken {
  readonly key: string
  readonly bids: Map<string, Decimal>
  readonly asks: Map<string, Decimal>
  /**
   * the live book at this key, kept until a taker takes from it: quotes
   * read it far more often than the step or the mark moves
   */
  live?: SimBook | undefined
}

export interface SimMarketState {
  readonly market: SimMarket
  readonly walk: MarkWalk
  /** base taken per level price while the step and the mark stay put */
  taken: SimTaken
}

/** Injectable faults, applied by the paper adapter. */
export interface SimFaults {
  /** delay before every adapter call answers @default 0 */
  readonly latencyMs: number
  /** share of placements executed whose answer is lost @default 0 */
  readonly timeoutAfterAcceptRate: number
  /**
   * share of placements the engine refuses, in the venue's words for
   * insufficient margin (a refusal retrying cannot change), through every
   * adapter and protocol fake @default 0
   */
  readonly rejectRate: number
  /** every call fails before anything happens @default false */
  readonly outage: boolean
}

/** The fault setting of a healthy venue. */
export const NO_FAULTS: SimFaults = Object.freeze({
  latencyMs: 0,
  timeoutAfterAcceptRate: 0,
  rejectRate: 0,
  outage: false,
})

/** The whole mutable state of one simulated venue. */
export interface SimState {
  readonly venue: VenueId
  readonly seed: number
  readonly clock: Clock
  readonly stepMs: number
  /** funding settles at every multiple of this (Unix ms) */
  readonly fundingIntervalMs: number
  readonly style: VenueStyle
  readonly markets: Map<string, SimMarketState>
  /** by lowercased owner */
  readonly accounts: Map<string, SimAccount>
  /** by client order id: unique per venue, so one cloid is one order */
  readonly orders: Map<string, SimOrder>
  /** live orders, oldest first (the order fills are tried in) */
  readonly resting: Set<SimOrder>
  readonly byClientOrderId: Map<string, number>
  /** dead-man switches by `owner|market` (`owner|*`: the whole account) */
  readonly scheduledCancels: Map<string, SimScheduledCancel>
  /** last step and funding period (ms / fundingIntervalMs) evaluated */
  step: number
  fundingPeriod: number
  /** counts changes only a caller makes (time replays from a snapshot) */
  version: number
  nextAccountIndex: number
  nextOrderId: number
  nextTradeId: number
  placed: number
  rejected: number
  faults: SimFaults
  readonly faultRandom: () => number
}

interface SimStateOptions {
  readonly venue: VenueId
  readonly seed: number
  readonly clock: Clock
  readonly stepMs: number
  readonly markets: readonly SimMarket[]
  /** @default HOUR_MS */
  readonly fundingIntervalMs?: number | undefined
  /** venues sharing one price per asset; absent: each market walks alone */
  readonly underlying?: UnderlyingPrices | undefined
}

/**
 * A fresh venue at `clock.now()`: marks at their listed start, no accounts,
 * only this venue's markets.
 */
export function createSimState(o: SimStateOptions): SimState {
  const now = o.clock.now()
  const step = Math.floor(now / o.stepMs)
  const fundingIntervalMs = o.fundingIntervalMs ?? HOUR_MS
  const markets = new Map<string, SimMarketState>()
  for (const market of o.markets) {
    if (market.venue !== o.venue) continue
    markets.set(market.symbol, {
      market,
      walk: o.underlying
        ? createBasisWalk(market, o.seed, o.underlying, step)
        : createMarkWalk(market, o.seed),
      taken: { key: '', bids: new Map(), asks: new Map() },
    })
  }
  return {
    venue: o.venue,
    seed: o.seed,
    clock: o.clock,
    stepMs: o.stepMs,
    fundingIntervalMs,
    style: venueStyle(o.venue),
    markets,
    accounts: new Map(),
    orders: new Map(),
    resting: new Set(),
    byClientOrderId: new Map(),
    scheduledCancels: new Map(),
    step,
    fundingPeriod: Math.floor(now / fundingIntervalMs),
    version: 0,
    nextAccountIndex: 1,
    nextOrderId: 1,
    nextTradeId: 1,
    placed: 0,
    rejected: 0,
    faults: NO_FAULTS,
    faultRandom: seededRandom(hashSeed(o.seed, o.venue, 'faults')),
  }
}

/** The owner's account; throws VenueAccountNotFoundError without a faucet. */
export function accountOf(state: SimState, owner: string): SimAccount {
  const account = state.accounts.get(owner.toLowerCase())
  if (!account) {
    throw new VenueAccountNotFoundError(
      `${state.venue} (simulated) has no account for ${owner}; use the faucet`,
    )
  }
  return account
}

/** A listed market; throws VenueRejectedError in the venue's words. */
export function marketOf(state: SimState, symbol: string): SimMarketState {
  const m = state.markets.get(symbol)
  if (!m) throw new VenueRejectedError(state.style.reasons.unknownMarket)
  return m
}

/** Leverage and margin mode of an account on a market, with defaults. */
export function settingsOf(
  account: SimAccount,
  market: SimMarket,
): SimSettings {
  return (
    account.settings.get(market.symbol) ?? {
      leverage: Math.min(10, market.maxLeverage),
      marginMode: 'cross',
    }
  )
}

/** The current mark of a listed market. */
export function markOf(state: SimState, symbol: string): Decimal {
  return state.markets.get(symbol)?.walk.mark ?? dec(0)
}

/**
 * A venue's dead-man switch on the engine: at `at` (the engine's clock)
 * every resting order of the owner, on `market` or on every market, is
 * cancelled, as an event in time order with the mark steps and funding.
 */
export interface SimScheduledCancel {
  /** lowercased */
  readonly owner: string
  /** null: every market of the account */
  readonly market: string | null
  readonly at: number
}

/** A seeded draw: true with the configured rate of that fault. */
export function rollFault(
  state: SimState,
  kind: 'reject' | 'timeoutAfterAccept',
): boolean {
  const rate =
    kind === 'reject'
      ? state.faults.rejectRate
      : state.faults.timeoutAfterAcceptRate
  if (rate <= 0) return false
  if (rate >= 1) return true
  return state.faultRandom() < rate
}
