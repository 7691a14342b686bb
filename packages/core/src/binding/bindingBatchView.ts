import type { BindingBatchRecord, SignRequest } from '../domain/bindingBatch.js'

export interface VenueBindingResultView {
  readonly venue: string
  readonly sessionId: string | null
  readonly status: string
  readonly code?: string
  readonly retryable?: boolean
}

export interface VenueBindingBatchView {
  readonly bindingId: string
  readonly owner: string
  readonly expiresAt: string
  readonly status: string
  readonly results: VenueBindingResultView[]
  readonly signRequests: SignRequest[]
}

/**
 * The contract's VenueBindingBatch: persisted state only. `signRequests`
 * lists outstanding requests of venues still awaiting signatures, and none
 * once the session has expired; accepted signatures are never returned.
 */
export function bindingBatchView(
  b: BindingBatchRecord,
  nowMs: number,
): VenueBindingBatchView {
  const open = Date.parse(b.expiresAt) > nowMs
  return {
    bindingId: b.id,
    owner: b.owner,
    expiresAt: b.expiresAt,
    status: b.status,
    results: b.venues.map((v) => ({
      venue: v.target.venue,
      sessionId: v.sessionId,
      status: v.status,
      ...(v.code === null ? {} : { code: v.code }),
      ...(v.retryable === null ? {} : { retryable: v.retryable }),
    })),
    signRequests: open
      ? b.venues
          .filter((v) => v.status === 'awaiting_signatures')
          .flatMap((v) =>
            v.requests.filter((r) => !(r.requestId in v.signatures)),
          )
      : [],
  }
}
