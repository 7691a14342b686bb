import { isLive, setOrderState } from './simOrder.js'
import { accountOf, type SimState } from './simState.js'

const key = (owner: string, market: string | null) =>
  `${owner.toLowerCase()}|${market ?? '*'}`

/**
 * Schedules the owner's cancel-all (one per owner and market, the
 * account's own under `market` null), replacing the one it had; `at` null
 * clears it.
 * @throws VenueAccountNotFoundError without an account
 */
export function scheduleSimCancel(
  state: SimState,
  owner: string,
  at: number | null,
  market: string | null,
): void {
  const account = accountOf(state, owner)
  const k = key(account.owner, market)
  if (at === null) state.scheduledCancels.delete(k)
  else state.scheduledCancels.set(k, { owner: account.owner, market, at })
}

/** The earliest scheduled cancel's time; Infinity when none. */
export function nextScheduledCancelAt(state: SimState): number {
  let next = Number.POSITIVE_INFINITY
  for (const s of state.scheduledCancels.values()) next = Math.min(next, s.at)
  return next
}

/** Fires (and forgets) every schedule due at `at`. */
export function fireScheduledCancels(state: SimState, at: number): void {
  for (const [k, s] of state.scheduledCancels) {
    if (s.at > at) continue
    state.scheduledCancels.delete(k)
    for (const order of [...state.resting]) {
      if (order.owner !== s.owner || !isLive(order)) continue
      if (s.market !== null && order.market !== s.market) continue
      setOrderState(
        state.style,
        order,
        'cancelled',
        'scheduled',
        'cancelled by the scheduled cancel-all',
      )
      state.resting.delete(order)
    }
  }
}
