/**
 * Who waits for a venue's budget, most urgent first: order sends, cancels
 * and close/unwind/protection legs; reads for tasks near a rule threshold
 * and order lookups; reads an HTTP caller waits on (binding's account
 * preflight, the venue-accounts look-up); routine monitoring; funding
 * history.
 */
export type RequestPriority =
  | 'order'
  | 'urgent'
  | 'interactive'
  | 'routine'
  | 'history'

export const REQUEST_PRIORITIES: readonly RequestPriority[] = [
  'order',
  'urgent',
  'interactive',
  'routine',
  'history',
]
