import type { CancelAllSwitch } from '@dn/core'
import {
  cancelAllOrders,
  LIGHTER_CANCEL_ALL,
} from '../signer/cancelAllOrders.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import type { LighterSigningKey } from './lighterCredential.js'
import { sendLighterTx } from './sendLighterTx.js'

/**
 * Lighter's dead-man switch: CancelAllOrders (tx 16) with TimeInForce
 * `scheduled` (1) and `Time` (ms) cancels every order of the account at
 * that time; `abort` (2, Time 0) removes the schedule (lighter-go
 * `types/txtypes/cancel_all_orders.go`; a market-scoped cancel-all "can't
 * be scheduled", `errors.go`). The time lies 5 min to 15 days ahead:
 * lighter-go `MinOrderCancelAllPeriod` / `MaxOrderCancelAllPeriod`
 * (`constants.go`), which the SDK does not check itself; that the venue
 * enforces them is [unverified].
 */
export const LIGHTER_CANCEL_ALL_SWITCH: CancelAllSwitch = Object.freeze({
  scope: 'account',
  minLeadMs: 5 * 60_000,
  maxLeadMs: 15 * 86_400_000,
})

/**
 * ms a switch tx stays valid (`ExpiredAt`): an abort delayed in transit
 * must not land after the schedule that followed it
 */
const SWITCH_TX_TTL_MS = 30_000

/**
 * Schedules the account's cancel-all at `at`, or aborts it (`at` null),
 * signed with the account's API key and sent with the key's next nonce.
 * @throws VenueRejectedError refused (e.g. a time out of range)
 * @throws UncertainSubmissionError the tx may have been accepted
 * @throws VenueUnavailableError nothing was sent
 */
export async function armLighterCancelAll(
  ctx: LighterAdapterContext,
  key: LighterSigningKey,
  at: number | null,
): Promise<void> {
  await sendLighterTx(
    ctx,
    key,
    (nonce, expiredAt) =>
      cancelAllOrders({
        chainId: ctx.chainId,
        nonce,
        expiredAt,
        accountIndex: key.accountIndex,
        apiKeyIndex: key.apiKeyIndex,
        privateKey: key.privateKey,
        timeInForce:
          at === null ? LIGHTER_CANCEL_ALL.abort : LIGHTER_CANCEL_ALL.scheduled,
        time: at ?? 0,
      }),
    ctx.clock.now() + SWITCH_TX_TTL_MS,
  )
}
