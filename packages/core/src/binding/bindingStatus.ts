import type {
  BindingBatchStatus,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'

const SETTLED_OK = new Set(['bound', 'already_bound'])

/**
 * The batch status is derived from its venues: work in flight → processing;
 * signatures still wanted → awaiting_signatures; all settled → bound,
 * partial_success (some bound, some failed or expired) or failed.
 */
export function deriveBatchStatus(
  venues: readonly BindingVenueEntry[],
): BindingBatchStatus {
  const states = venues.map((v) => v.status)
  if (states.some((s) => s === 'queued' || s === 'confirming'))
    return 'processing'
  if (states.some((s) => s === 'awaiting_signatures'))
    return 'awaiting_signatures'
  const ok = states.filter((s) => SETTLED_OK.has(s)).length
  if (ok === states.length) return 'bound'
  return ok > 0 ? 'partial_success' : 'failed'
}
