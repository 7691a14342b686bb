import { fillOrder, reducibleSize } from './fillOrder.js'
import { liquidateAccounts } from './liquidateAccounts.js'
import {
  fireScheduledCancels,
  nextScheduledCancelAt,
} from './scheduledCancels.js'
import { settleFunding } from './settleFunding.js'
import { setOrderState } from './simOrder.js'
import { accountOf, type SimState } from './simState.js'

/**
 * Brings the venue up to `clock.now()`, one event at a time in time order:
 * a due dead-man switch cancels its orders first; every step boundary
 * moves all marks, fills resting orders the marks crossed and liquidates;
 * every funding boundary (the UTC hour by default) settles funding
 * (after the step that shares its instant). Called first by every engine
 * operation, so the outcome depends on seed and times only, never on how
 * often anyone asked: a restored snapshot replays the same.
 */
export function advanceSim(state: SimState): void {
  const now = state.clock.now()
  for (;;) {
    const stepAt = (state.step + 1) * state.stepMs
    const fundingAt = (state.fundingPeriod + 1) * state.fundingIntervalMs
    const cancelAt = nextScheduledCancelAt(state)
    const at = Math.min(stepAt, fundingAt, cancelAt)
    if (at > now) return
    if (cancelAt === at) fireScheduledCancels(state, at)
    if (stepAt === at) {
      state.step += 1
      for (const m of state.markets.values()) m.walk.step(state.step)
      reactToMarks(state, at)
    }
    if (fundingAt === at) {
      state.fundingPeriod += 1
      settleFunding(state, at)
    }
  }
}

/** What follows a mark change: resting fills, then liquidations. */
export function reactToMarks(state: SimState, at: number): void {
  if (state.resting.size > 0) fillResting(state)
  liquidateAccounts(state, at)
}

// A resting order is the maker: it fills whole, at its own price, once the
// mark trades through it (a buy when mark <= price, a sell when >=).
function fillResting(state: SimState): void {
  for (const order of [...state.resting]) {
    const mark = state.markets.get(order.market)?.walk.mark
    if (!mark) continue
    const long = order.side === 'long'
    if (long ? mark.gt(order.price) : mark.lt(order.price)) continue
    let qty = order.size.sub(order.filled)
    if (order.reduceOnly) {
      const account = accountOf(state, order.owner)
      const room = reducibleSize(account, order.market, order.side)
      if (room.lt(qty)) qty = room
    }
    fillOrder(state, order, qty, order.price, 'maker')
    state.resting.delete(order)
    if (order.filled.eq(order.size)) {
      setOrderState(state.style, order, 'filled')
    } else {
      // a reduce-only order never opens the other way: the rest is dropped
      setOrderState(
        state.style,
        order,
        'cancelled',
        'reduce_only',
        state.style.reasons.reduceOnly,
      )
    }
  }
}
