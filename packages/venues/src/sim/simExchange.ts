import {
  type Clock,
  type DecimalInput,
  dec,
  decString,
  type FundingPayment,
  type MarginMode,
  type MarketQuote,
  type MarketRules,
  type OrderSide,
  type VenueId,
  type VenueOrder,
  type VenueOrderRequest,
  type VenuePosition,
} from '@dn/core'
import { adjustSimIsolatedMargin } from './adjustSimIsolatedMargin.js'
import { advanceSim, reactToMarks } from './advanceSim.js'
import { cancelSimOrder } from './cancelSimOrder.js'
import { usd } from './fillOrder.js'
import { fundingRate } from './fundingRate.js'
import { crossEquity, freeMargin } from './liquidationPrice.js'
import { liveBook } from './liveBook.js'
import { placeSimOrder } from './placeSimOrder.js'
import { scheduleSimCancel } from './scheduledCancels.js'
import { setSimLeverage } from './setSimLeverage.js'
import { type SimFundingRate, simFundingRates } from './simFundingRates.js'
import { SIM_MARKETS, type SimMarket } from './simMarkets.js'
import { isLive, orderView } from './simOrder.js'
import { simPositions } from './simPositions.js'
import {
  accountOf,
  createSimState,
  marketOf,
  NO_FAULTS,
  rollFault,
  type SimFaults,
  type SimLiquidation,
  type SimSettings,
  type SimState,
  settingsOf,
} from './simState.js'
import {
  restoreSimState,
  type SimStateSnapshot,
  simStateToSnapshot,
} from './simStateSnapshot.js'
import type { SimBook } from './syntheticBook.js'
import type { UnderlyingPrices } from './underlyingPrices.js'

export interface SimExchangeOptions {
  readonly venue: VenueId
  /** same seed and same clock readings give the same run */
  readonly seed: number
  /** the only source of time */
  readonly clock: Clock
  /** listings; only this venue's rows are used @default SIM_MARKETS */
  readonly markets?: readonly SimMarket[]
  /** length of one mark step in ms @default 1000 */
  readonly stepMs?: number
  /** funding settles at every multiple of this, Unix ms @default 3_600_000 */
  readonly fundingIntervalMs?: number | undefined
  /**
   * one price per asset shared with other venues (each mark keeps a basis
   * to it); absent: every market walks on its own
   */
  readonly underlying?: UnderlyingPrices | undefined
  /** a saved engine of this venue to go on from (`toSnapshot()`) */
  readonly restore?: SimStateSnapshot | undefined
}

export interface SimAccountView {
  readonly owner: string
  readonly accountIndex: number
  /** cash: deposits + realized PnL + funding */
  readonly collateralUsd: string
  /** cross equity: collateral - isolated margin + cross unrealized PnL */
  readonly crossEquityUsd: string
  readonly freeMarginUsd: string
}

export interface SimExchangeStats {
  /** orders the venue accepted */
  readonly placed: number
  /** placements refused by the engine */
  readonly rejected: number
  /** venue orders per client order id; never more than 1 */
  readonly byClientOrderId: Map<string, number>
}

/** One execution of one of the owner's orders. */
export interface SimFillView {
  readonly market: string
  readonly side: OrderSide
  readonly price: string
  readonly size: string
  /** Unix ms */
  readonly time: number
  readonly tradeId: number
  /** the trading fee charged, USD */
  readonly fee: string
  /** it rested on the book; false: it crossed it */
  readonly maker: boolean
  /** PnL realized on the position it shrank, USD */
  readonly realizedPnl: string
  /** the builder fee charged on top of `fee`, USD; absent: none named */
  readonly builderFee?: string
  readonly clientOrderId: string
  readonly venueOrderId: string
}

/** One simulated venue: markets, accounts, orders, positions, faults. */
export interface SimExchange {
  readonly venue: VenueId
  /** the venue's clock, Unix ms */
  now(): number
  /** the venue's listed markets */
  listed(): MarketRules[]
  rules(symbol: string): MarketRules | undefined
  quote(symbol: string): MarketQuote
  /** the live book (what takers left at this step) */
  book(symbol: string): SimBook
  /** test hook: pins a mark (null resumes the walk), then reacts to it */
  setMark(symbol: string, mark: string | null): void
  /** credits collateral, creating the account on first use */
  faucet(owner: string, collateralUsd: DecimalInput): { accountIndex: number }
  accountIndex(owner: string): number
  /** the owner (lowercase) of an account index; null when none */
  ownerOf(accountIndex: number): string | null
  account(owner: string): SimAccountView
  setLeverage(
    owner: string,
    market: string,
    leverage: number,
    marginMode: MarginMode,
  ): void
  /** the owner's leverage and margin mode on `market` (defaults if unset) */
  leverage(owner: string, market: string): SimSettings
  /** USD reserved by the owner's isolated position on `market` ('0': none) */
  isolatedMargin(owner: string, market: string): string
  /** moves USD into (+) or out of (-) an isolated position's margin */
  adjustIsolatedMargin(
    owner: string,
    market: string,
    deltaUsd: DecimalInput,
  ): void
  /**
   * @param builderFeeRate share of each fill's notional the owner also
   *   pays (a Hyperliquid builder code), e.g. `0.0001`; absent: none
   */
  place(
    owner: string,
    request: VenueOrderRequest,
    builderFeeRate?: DecimalInput,
  ): VenueOrder
  /** @returns null when unknown (or on another market, when given) */
  order(
    owner: string,
    clientOrderId: string,
    market?: string,
  ): VenueOrder | null
  cancel(owner: string, clientOrderId: string, market?: string): VenueOrder
  openOrders(owner: string): VenueOrder[]
  /**
   * The venue's dead-man switch: at `at` (this engine's clock) every
   * resting order of the owner on `market` (null: every market) is
   * cancelled, as the venue's protocol fake armed it; `at` null clears
   * it. One per owner and market; a new one replaces it.
   */
  scheduleCancel(owner: string, at: number | null, market: string | null): void
  /** the owner's dead-man switches not yet fired (market null: the account's) */
  scheduledCancels(owner: string): { market: string | null; at: number }[]
  positions(owner: string): VenuePosition[]
  funding(owner: string, market: string, sinceIso: string): FundingPayment[]
  /** the market's settled hourly rates in [fromMs, toMs], oldest first */
  fundingRates(
    symbol: string,
    fromMs: number,
    toMs: number,
    limit: number,
  ): SimFundingRate[]
  liquidations(owner: string): SimLiquidation[]
  /** the owner's executions at or after `sinceMs`, oldest first */
  fills(owner: string, sinceMs: number): SimFillView[]
  /** replaces all faults; omitted fields are off */
  setFaults(faults: Partial<SimFaults>): void
  faults(): SimFaults
  /** a seeded draw: true with the configured rate of that fault */
  rollFault(kind: 'reject' | 'timeoutAfterAccept'): boolean
  stats(): SimExchangeStats
  /** the funding interval in ms (settlements at its multiples) */
  readonly fundingIntervalMs: number
  /** the next funding settlement, Unix ms */
  nextFundingAt(): number
  /** the whole engine as JSON, brought up to now first */
  toSnapshot(): SimStateSnapshot
  /**
   * grows with every change a caller made (orders, accounts, faucet,
   * leverage, switches, pins): what happens by itself as time passes
   * replays the same from an older snapshot, so only these need saving
   */
  version(): number
}

/**
 * Builds one simulated venue. Every call first brings the engine up to
 * `clock.now()` (see advanceSim), so the run depends only on seed and time.
 * Errors: VenueAccountNotFoundError (no faucet yet), VenueRejectedError
 * (refused, in the venue's words); RangeError for misuse of test hooks.
 */
export function createSimExchange(options: SimExchangeOptions): SimExchange {
  const state = createSimState({
    venue: options.venue,
    seed: options.seed,
    clock: options.clock,
    stepMs: options.stepMs ?? 1000,
    markets: options.markets ?? SIM_MARKETS,
    fundingIntervalMs: options.fundingIntervalMs,
    underlying: options.underlying,
  })
  if (options.restore) restoreSimState(state, options.restore)
  const sync = <T>(fn: () => T): T => {
    advanceSim(state)
    return fn()
  }
  /** a caller's change: counted whether or not it was refused */
  const change = <T>(fn: () => T): T => {
    state.version += 1
    return fn()
  }
  return {
    venue: state.venue,
    now: () => state.clock.now(),
    listed: () => [...state.markets.values()].map((m) => rulesOf(m.market)),
    rules: (symbol) => {
      const m = state.markets.get(symbol)
      return m ? rulesOf(m.market) : undefined
    },
    quote: (symbol) => sync(() => quote(state, symbol)),
    book: (symbol) => sync(() => liveBook(state, marketOf(state, symbol))),
    setMark: (symbol, mark) =>
      change(() => sync(() => pinMark(state, symbol, mark))),
    faucet: (owner, usd) => change(() => sync(() => faucet(state, owner, usd))),
    accountIndex: (owner) => accountOf(state, owner).accountIndex,
    ownerOf: (index) => {
      for (const a of state.accounts.values()) {
        if (a.accountIndex === index) return a.owner
      }
      return null
    },
    account: (owner) => sync(() => accountView(state, owner)),
    setLeverage: (owner, market, leverage, mode) =>
      change(() => setSimLeverage(state, owner, market, leverage, mode)),
    leverage: (owner, market) =>
      settingsOf(accountOf(state, owner), marketOf(state, market).market),
    isolatedMargin: (owner, market) =>
      decString(
        accountOf(state, owner).positions.get(market)?.isolatedMargin ?? dec(0),
      ),
    adjustIsolatedMargin: (owner, market, delta) =>
      change(() => adjustSimIsolatedMargin(state, owner, market, dec(delta))),
    place: (owner, request, builderFeeRate) =>
      change(() =>
        placeSimOrder(
          state,
          owner,
          request,
          builderFeeRate === undefined ? undefined : dec(builderFeeRate),
        ),
      ),
    order: (owner, cloid, market) =>
      sync(() => findOrder(state, owner, cloid, market)),
    cancel: (owner, cloid, market) =>
      change(() => cancelSimOrder(state, owner, cloid, market)),
    openOrders: (owner) => sync(() => openOrders(state, owner)),
    // up to now first: a schedule never reaches back before its arming
    scheduleCancel: (owner, at, market) =>
      change(() => sync(() => scheduleSimCancel(state, owner, at, market))),
    scheduledCancels: (owner) =>
      sync(() =>
        [...state.scheduledCancels.values()]
          .filter((s) => s.owner === owner.toLowerCase())
          .map((s) => ({ market: s.market, at: s.at })),
      ),
    positions: (owner) => simPositions(state, owner),
    funding: (owner, market, since) =>
      sync(() => fundingSince(state, owner, market, since)),
    fundingRates: (symbol, from, to, limit) =>
      simFundingRates(state, symbol, from, to, limit),
    liquidations: (owner) =>
      sync(() => [...accountOf(state, owner).liquidations]),
    fills: (owner, sinceMs) => sync(() => fillsSince(state, owner, sinceMs)),
    setFaults: (faults) => {
      state.faults = Object.freeze({ ...NO_FAULTS, ...faults })
    },
    faults: () => state.faults,
    rollFault: (kind) => rollFault(state, kind),
    stats: () => ({
      placed: state.placed,
      rejected: state.rejected,
      byClientOrderId: new Map(state.byClientOrderId),
    }),
    fundingIntervalMs: state.fundingIntervalMs,
    nextFundingAt: () => sync(() => nextFundingAt(state)),
    toSnapshot: () => sync(() => simStateToSnapshot(state)),
    version: () => state.version,
  }
}

function nextFundingAt(state: SimState): number {
  return (state.fundingPeriod + 1) * state.fundingIntervalMs
}

function rulesOf(market: SimMarket): MarketRules {
  const { initialMark: _mark, fundingRateHourly: _rate, ...rules } = market
  return rules
}

function quote(state: SimState, symbol: string): MarketQuote {
  const m = marketOf(state, symbol)
  const book = liveBook(state, m)
  const mark = m.walk.mark
  return {
    venue: state.venue,
    symbol,
    mark: decString(mark),
    bid: decString(book.bids[0]?.price ?? mark),
    ask: decString(book.asks[0]?.price ?? mark),
    fundingRateHourly: decString(
      fundingRate(m.market, state.seed, state.fundingPeriod),
    ),
    nextFundingAt: nextFundingAt(state),
  }
}

function pinMark(state: SimState, symbol: string, mark: string | null) {
  const m = state.markets.get(symbol)
  if (!m) throw new RangeError(`${state.venue} does not list ${symbol}`)
  const next = mark === null ? null : dec(mark)
  if (next?.lte(0)) throw new RangeError(`mark must be > 0: ${mark}`)
  m.walk.pin(next)
  reactToMarks(state, state.clock.now())
}

function faucet(state: SimState, owner: string, usd: DecimalInput) {
  const amount = dec(usd)
  if (!amount.isFinite() || amount.lte(0)) {
    throw new RangeError(`collateral must be > 0: ${String(usd)}`)
  }
  const key = owner.toLowerCase()
  const account = state.accounts.get(key) ?? {
    owner: key,
    accountIndex: state.nextAccountIndex++,
    collateral: dec(0),
    positions: new Map(),
    settings: new Map(),
    funding: [],
    liquidations: [],
  }
  account.collateral = account.collateral.add(amount)
  state.accounts.set(key, account)
  return { accountIndex: account.accountIndex }
}

function accountView(state: SimState, owner: string): SimAccountView {
  const account = accountOf(state, owner)
  return {
    owner: account.owner,
    accountIndex: account.accountIndex,
    collateralUsd: decString(usd(account.collateral)),
    crossEquityUsd: decString(usd(crossEquity(state, account))),
    freeMarginUsd: decString(usd(freeMargin(state, account))),
  }
}

function findOrder(
  state: SimState,
  owner: string,
  cloid: string,
  market: string | undefined,
): VenueOrder | null {
  const account = accountOf(state, owner)
  const order = state.orders.get(cloid)
  if (order?.owner !== account.owner) return null
  return market === undefined || order.market === market
    ? orderView(order)
    : null
}

function openOrders(state: SimState, owner: string): VenueOrder[] {
  const account = accountOf(state, owner)
  return [...state.resting]
    .filter((o) => o.owner === account.owner && isLive(o))
    .map(orderView)
}

function fundingSince(
  state: SimState,
  owner: string,
  market: string,
  sinceIso: string,
): FundingPayment[] {
  const since = Date.parse(sinceIso)
  if (Number.isNaN(since)) throw new RangeError(`not a time: ${sinceIso}`)
  return accountOf(state, owner).funding.filter(
    (p) => p.market === market && Date.parse(p.time) >= since,
  )
}

function fillsSince(
  state: SimState,
  owner: string,
  sinceMs: number,
): SimFillView[] {
  const account = accountOf(state, owner)
  const out: SimFillView[] = []
  for (const o of state.orders.values()) {
    if (o.owner !== account.owner) continue
    for (const f of o.fills) {
      if (f.time < sinceMs) continue
      out.push({
        market: o.market,
        side: o.side,
        price: decString(f.price),
        size: decString(f.qty),
        time: f.time,
        tradeId: f.tradeId,
        fee: decString(f.fee),
        maker: f.maker,
        realizedPnl: decString(f.realizedPnl),
        ...(f.builderFee ? { builderFee: decString(f.builderFee) } : {}),
        clientOrderId: o.clientOrderId,
        venueOrderId: o.venueOrderId,
      })
    }
  }
  return out.sort((a, b) => a.tradeId - b.tradeId)
}
