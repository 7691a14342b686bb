import {
  dec,
  type FundingPayment,
  type OrderSide,
  type TimeInForce,
  type VenueId,
  type VenueOrderState,
} from '@dn/core'
import type { MarkWalkSnapshot } from './createMarkWalk.js'
import type { SimOrder } from './simOrder.js'
import type {
  SimAccount,
  SimLiquidation,
  SimScheduledCancel,
  SimSettings,
  SimState,
} from './simState.js'

/**
 * One simulated venue's engine as plain JSON: Maps as arrays of entries,
 * decimals as strings (exact both ways). Not kept: faults (test hooks),
 * the fault PRNG, and what the book's takers used up in the current step.
 */
export interface SimStateSnapshot {
  readonly venue: VenueId
  readonly stepMs: number
  readonly fundingIntervalMs: number
  readonly step: number
  readonly fundingPeriod: number
  readonly nextAccountIndex: number
  readonly nextOrderId: number
  readonly nextTradeId: number
  readonly placed: number
  readonly rejected: number
  readonly markets: readonly (readonly [string, MarkWalkSnapshot])[]
  readonly accounts: readonly SimAccountSnapshot[]
  /** every order the venue holds, in the order it took them */
  readonly orders: readonly SimOrderSnapshot[]
  /** client order ids of the resting orders, oldest first */
  readonly resting: readonly string[]
  readonly byClientOrderId: readonly (readonly [string, number])[]
  readonly scheduledCancels: readonly (readonly [string, SimScheduledCancel])[]
}

interface SimPositionSnapshot {
  readonly size: string
  readonly entry: string
  readonly isolatedMargin: string
}

export interface SimAccountSnapshot {
  readonly owner: string
  readonly accountIndex: number
  readonly collateral: string
  readonly positions: readonly (readonly [string, SimPositionSnapshot])[]
  readonly settings: readonly (readonly [string, SimSettings])[]
  readonly funding: readonly FundingPayment[]
  readonly liquidations: readonly SimLiquidation[]
}

export interface SimOrderSnapshot {
  readonly owner: string
  readonly market: string
  readonly side: OrderSide
  readonly price: string
  readonly timeInForce: TimeInForce
  readonly reduceOnly: boolean
  readonly clientOrderId: string
  readonly venueOrderId: string
  readonly priceDecimals: number
  readonly size: string
  readonly filled: string
  readonly filledNotional: string
  readonly fills: readonly {
    readonly qty: string
    readonly price: string
    readonly time: number
    readonly tradeId: number
    /** absent in snapshots saved before the fakes charged fees */
    readonly fee?: string | undefined
    readonly maker?: boolean | undefined
    readonly realizedPnl?: string | undefined
    /** absent: no builder fee (and in snapshots older than builder fees) */
    readonly builderFee?: string | undefined
  }[]
  /** absent: no builder fee (and in snapshots older than builder fees) */
  readonly builderFeeRate?: string | undefined
  readonly state: VenueOrderState
  readonly venueStatus: string
  readonly reason: string | null
}

/** A snapshot of the engine as it is now (the caller brings it up to date). */
export function simStateToSnapshot(state: SimState): SimStateSnapshot {
  return {
    venue: state.venue,
    stepMs: state.stepMs,
    fundingIntervalMs: state.fundingIntervalMs,
    step: state.step,
    fundingPeriod: state.fundingPeriod,
    nextAccountIndex: state.nextAccountIndex,
    nextOrderId: state.nextOrderId,
    nextTradeId: state.nextTradeId,
    placed: state.placed,
    rejected: state.rejected,
    markets: [...state.markets].map(([s, m]) => [s, m.walk.toSnapshot()]),
    accounts: [...state.accounts.values()].map(accountToSnapshot),
    orders: [...state.orders.values()].map(orderToSnapshot),
    resting: [...state.resting].map((o) => o.clientOrderId),
    byClientOrderId: [...state.byClientOrderId],
    scheduledCancels: [...state.scheduledCancels],
  }
}

/**
 * Puts a snapshot into a fresh engine of the same venue and step length.
 * A changed funding interval starts counting periods from the snapshot's
 * last step. @throws RangeError when the snapshot is another venue's or
 * the step length differs
 */
export function restoreSimState(state: SimState, s: SimStateSnapshot): void {
  if (s.venue !== state.venue) {
    throw new RangeError(`a ${s.venue} snapshot cannot restore ${state.venue}`)
  }
  if (s.stepMs !== state.stepMs) {
    throw new RangeError(
      `the snapshot steps every ${s.stepMs} ms, this engine every ${state.stepMs} ms`,
    )
  }
  state.step = s.step
  state.fundingPeriod =
    s.fundingIntervalMs === state.fundingIntervalMs
      ? s.fundingPeriod
      : Math.floor((s.step * s.stepMs) / state.fundingIntervalMs)
  state.nextAccountIndex = s.nextAccountIndex
  state.nextOrderId = s.nextOrderId
  state.nextTradeId = s.nextTradeId
  state.placed = s.placed
  state.rejected = s.rejected
  for (const [symbol, walk] of s.markets) {
    // a market no longer listed is dropped with its walk
    state.markets.get(symbol)?.walk.restore(walk)
  }
  state.accounts.clear()
  for (const a of s.accounts) state.accounts.set(a.owner, accountFrom(a))
  state.orders.clear()
  for (const o of s.orders) state.orders.set(o.clientOrderId, orderFrom(o))
  state.resting.clear()
  for (const id of s.resting) {
    const order = state.orders.get(id)
    if (order) state.resting.add(order)
  }
  state.byClientOrderId.clear()
  for (const [id, n] of s.byClientOrderId) state.byClientOrderId.set(id, n)
  state.scheduledCancels.clear()
  for (const [k, c] of s.scheduledCancels) state.scheduledCancels.set(k, c)
  skipLongPause(state)
}

/**
 * Time the engine replays after a restore, at most: a venue simulated
 * step by step costs about a second a day, run on the first request, so a
 * service stopped for a week would stall there. Past this the stop is a
 * pause: steps and funding periods before it are skipped (no funding is
 * paid for them, resting orders see the marks from there on), and the
 * marks pick up where the shared underlying price walked to.
 */
export const MAX_REPLAY_MS = 6 * 3_600_000

function skipLongPause(state: SimState): void {
  const from = state.clock.now() - MAX_REPLAY_MS
  if (state.step * state.stepMs >= from) return
  state.step = Math.floor(from / state.stepMs)
  state.fundingPeriod = Math.max(
    state.fundingPeriod,
    Math.floor(from / state.fundingIntervalMs),
  )
}

function accountToSnapshot(a: SimAccount): SimAccountSnapshot {
  return {
    owner: a.owner,
    accountIndex: a.accountIndex,
    collateral: a.collateral.toString(),
    positions: [...a.positions].map(([s, p]) => [
      s,
      {
        size: p.size.toString(),
        entry: p.entry.toString(),
        isolatedMargin: p.isolatedMargin.toString(),
      },
    ]),
    settings: [...a.settings],
    funding: [...a.funding],
    liquidations: [...a.liquidations],
  }
}

function accountFrom(a: SimAccountSnapshot): SimAccount {
  return {
    owner: a.owner,
    accountIndex: a.accountIndex,
    collateral: dec(a.collateral),
    positions: new Map(
      a.positions.map(([s, p]) => [
        s,
        {
          size: dec(p.size),
          entry: dec(p.entry),
          isolatedMargin: dec(p.isolatedMargin),
        },
      ]),
    ),
    settings: new Map(a.settings),
    funding: [...a.funding],
    liquidations: [...a.liquidations],
  }
}

function orderToSnapshot(o: SimOrder): SimOrderSnapshot {
  const { builderFeeRate, ...rest } = o
  return {
    ...rest,
    ...(builderFeeRate ? { builderFeeRate: builderFeeRate.toString() } : {}),
    price: o.price.toString(),
    size: o.size.toString(),
    filled: o.filled.toString(),
    filledNotional: o.filledNotional.toString(),
    fills: o.fills.map((f) => ({
      qty: f.qty.toString(),
      price: f.price.toString(),
      time: f.time,
      tradeId: f.tradeId,
      fee: f.fee.toString(),
      maker: f.maker,
      realizedPnl: f.realizedPnl.toString(),
      ...(f.builderFee ? { builderFee: f.builderFee.toString() } : {}),
    })),
  }
}

function orderFrom(o: SimOrderSnapshot): SimOrder {
  const { builderFeeRate, ...rest } = o
  return {
    ...rest,
    ...(builderFeeRate ? { builderFeeRate: dec(builderFeeRate) } : {}),
    price: dec(o.price),
    size: dec(o.size),
    filled: dec(o.filled),
    filledNotional: dec(o.filledNotional),
    fills: o.fills.map((f) => ({
      qty: dec(f.qty),
      price: dec(f.price),
      time: f.time,
      tradeId: f.tradeId,
      fee: dec(f.fee ?? '0'),
      maker: f.maker ?? false,
      realizedPnl: dec(f.realizedPnl ?? '0'),
      ...(f.builderFee ? { builderFee: dec(f.builderFee) } : {}),
    })),
  }
}
