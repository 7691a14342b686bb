import {
  type CancelAllSwitch,
  UncertainSubmissionError,
  type VenueCredential,
  VenueRejectedError,
} from '@dn/core'
import { isObj } from '../../wire/jsonFields.js'
import { scheduleCancelAction } from '../signing/orderAction.js'
import { hlExchangeResponse } from './hlExchangeResponse.js'

/**
 * Hyperliquid's dead-man switch, the `scheduleCancel` L1 action: one per
 * account (it cancels every open order of the user, ours or not), set at
 * least 5 s ahead (python SDK `Exchange.schedule_cancel`; nktkas
 * `ScheduleCancelRequest`: "Must be at least 5 seconds in the future").
 * It may fire at most 10 times a UTC day. The venue refuses it (arming
 * and clearing alike) for a user who has traded less than $1,000,000
 * ("Cannot set scheduled cancel time until enough volume traded", the
 * nktkas test suite): a VenueRejectedError the worker logs and retries
 * rarely. No upper bound is documented: a day here.
 */
export const HL_CANCEL_ALL_SWITCH: CancelAllSwitch = Object.freeze({
  scope: 'account',
  minLeadMs: 5_000,
  maxLeadMs: 86_400_000,
})

/**
 * ms a switch action stays valid (`expiresAfter`): a clear delayed in
 * transit must not land after the arm that followed it
 */
const SWITCH_ACTION_TTL_MS = 15_000

/** Posts a signed L1 action valid until `validUntil` (the adapter's). */
type HlSignedPost = (
  cred: VenueCredential,
  action: object,
  validUntil?: number,
) => Promise<unknown>

/**
 * Sets the account's `scheduleCancel` time to `at`, or removes it (`at`
 * null). Answer `{status:'ok', response:{type:'default'}}`; `{status:
 * 'err', response}` is a refusal.
 * @throws VenueRejectedError refused (too soon, volume, a bad key)
 * @throws UncertainSubmissionError an answer of another shape
 */
export async function armHlCancelAll(
  signedPost: HlSignedPost,
  cred: VenueCredential,
  at: number | null,
  now: number,
): Promise<void> {
  let action: object
  try {
    action = scheduleCancelAction(at ?? undefined)
  } catch (err) {
    throw new VenueRejectedError(
      err instanceof Error ? err.message : String(err),
      { cause: err },
    )
  }
  const raw = await signedPost(cred, action, now + SWITCH_ACTION_TTL_MS)
  const response = hlExchangeResponse(raw)
  if (!isObj(response) || response.type !== 'default') {
    throw new UncertainSubmissionError(
      `hyperliquid scheduleCancel: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
    )
  }
}
