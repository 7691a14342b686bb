import { accountExists, type HlFakeState } from './hlFakeState.js'

/**
 * Hyperliquid's `scheduleCancel` (dead-man switch) on the fake, by the
 * python SDK's `Exchange.schedule_cancel` docstring: the time must be at
 * least 5 s after the current time; at that time every open order of the
 * user is cancelled (orderStatus `scheduledCancel`) and a trigger is
 * counted, at most 10 a day, reset at 00:00 UTC; without `time` the
 * schedule is removed. Not modelled: the venue refuses both arming and
 * clearing until the user has traded $1,000,000 ("Cannot set scheduled
 * cancel time until enough volume traded. Required: $1000000. Traded:
 * $…", nktkas test suite).
 *
 * @module
 */

/** Least ms ahead of the venue's clock a switch may be set. */
const HL_SCHEDULE_CANCEL_LEAD_MS = 5_000
/** Triggers a user may have in one UTC day. */
const HL_SCHEDULE_CANCEL_DAILY_TRIGGERS = 10
const DAY_MS = 86_400_000

const ok = { status: 'ok', response: { type: 'default' } }
const err = (response: string) => ({ status: 'err', response })

/** Answers a verified `scheduleCancel` action of `user` (lowercase). */
export function scheduleCancel(
  state: HlFakeState,
  user: string,
  action: Record<string, unknown>,
): unknown {
  const now = state.now()
  countFired(state, user, now)
  const time = action.time
  if (time === undefined || time === null) {
    state.scheduledCancels.delete(user)
    engineSchedule(state, user, null)
    return ok
  }
  if (typeof time !== 'number' || !Number.isSafeInteger(time) || time < 0) {
    return err('Failed to deserialize the JSON body into the target type: time')
  }
  if (time < now + HL_SCHEDULE_CANCEL_LEAD_MS) {
    // [unverified] wording: the rule is documented, the refusal text is not
    return err(
      'Scheduled cancel time too early, must be at least 5 seconds after current time.',
    )
  }
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const fired = (state.cancelTriggers.get(user) ?? []).filter((t) => t >= today)
  if (fired.length >= HL_SCHEDULE_CANCEL_DAILY_TRIGGERS) {
    // [unverified]: the docs give the limit, not what arming past it answers
    return err('Too many scheduled cancel triggers today.')
  }
  state.scheduledCancels.set(user, time)
  engineSchedule(state, user, time)
  return ok
}

/** The whole account's switch on the engine (a user without one has no orders). */
function engineSchedule(state: HlFakeState, user: string, at: number | null) {
  if (accountExists(state, user)) state.exchange.scheduleCancel(user, at, null)
}

/** A switch whose time has passed fired (the engine cancelled at that time). */
function countFired(state: HlFakeState, user: string, now: number): void {
  const at = state.scheduledCancels.get(user)
  if (at === undefined || at > now) return
  state.scheduledCancels.delete(user)
  const today = Math.floor(now / DAY_MS) * DAY_MS
  const kept = (state.cancelTriggers.get(user) ?? []).filter((t) => t >= today)
  state.cancelTriggers.set(user, [...kept, at])
}
