import type { PerpOrderRecord, PerpOrderStatus } from './perpOrder.js'
import { SEND_WINDOW_MS } from './sendWindow.js'
import type {
  VenueOrderAttempt,
  VenueOrderAttemptStatus,
} from './venueOrderMachine.js'

const TO_ATTEMPT: Readonly<Record<PerpOrderStatus, VenueOrderAttemptStatus>> = {
  pending: 'ready',
  submitting: 'sending',
  unknown: 'uncertain',
  open: 'open',
  partially_filled: 'partially_filled',
  filled: 'filled',
  cancelled: 'cancelled',
  expired: 'expired',
  rejected: 'rejected',
}

/** the same mapping read the other way: it is one to one */
const TO_STATUS = Object.fromEntries(
  Object.entries(TO_ATTEMPT).map(([status, attempt]) => [attempt, status]),
) as Readonly<Record<VenueOrderAttemptStatus, PerpOrderStatus>>

/**
 * A direct order's venue attempt, read off its row: its send's deadline is
 * `sendBy` (what the worker signs into it; `submittedAt` plus
 * SEND_WINDOW_MS for a row saved before it was kept), and
 * `observedAt` says the venue has shown it. Whether it is past its own
 * expiry is an event the worker applies (`expired`), as it depends on now.
 */
export function perpOrderAttempt(order: PerpOrderRecord): VenueOrderAttempt {
  return {
    status: TO_ATTEMPT[order.status],
    sendBy:
      order.submittedAt === null
        ? null
        : order.sendBy !== null
          ? Date.parse(order.sendBy)
          : Date.parse(order.submittedAt) + SEND_WINDOW_MS,
    seen: order.observedAt !== null,
    cancelRequested: order.cancelRequestedAt !== null,
    expired: false,
    venueOrder: null,
    reason: order.error,
  }
}

/** The order status an attempt is stored as. */
export function perpOrderStatusOf(a: VenueOrderAttempt): PerpOrderStatus {
  return TO_STATUS[a.status]
}
