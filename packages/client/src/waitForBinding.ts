import { readBinding } from './bindVenues.js'
import { pollUntil, type WaitOptions } from './pollUntil.js'
import type { Transport } from './transport.js'
import type { BindingBatchStatus, VenueBindingBatch } from './types.js'
import type { WalletSigner } from './walletAuth.js'

/** Batch states no worker moves on from. */
const BATCH_FINAL: readonly BindingBatchStatus[] = [
  'bound',
  'partial_success',
  'failed',
]

export type BindingWaitOptions<
  U extends BindingBatchStatus = BindingBatchStatus,
> = WaitOptions<BindingBatchStatus, U, VenueBindingBatch>

/**
 * A batch is also over when it still awaits signatures past its expiry:
 * the service will not accept them any more.
 */
function isFinal(b: VenueBindingBatch, now: number): boolean {
  if (BATCH_FINAL.includes(b.status)) return true
  return b.status === 'awaiting_signatures' && Date.parse(b.expiresAt) < now
}

/** The venues that did not bind, e.g. `hl: failed venue_rejected`. */
function detail(b: VenueBindingBatch): string | undefined {
  const bad = b.results.filter(
    (r) => r.status !== 'bound' && r.status !== 'already_bound',
  )
  if (b.status === 'awaiting_signatures') return `expired at ${b.expiresAt}`
  return bad.length === 0
    ? undefined
    : bad
        .map((r) => `${r.venue}: ${r.status}${r.code ? ` ${r.code}` : ''}`)
        .join(', ')
}

/**
 * Polls a binding batch (wallet-signed reads) until its status is one of
 * `until` (default: settled). Throws DnWaitError when it settles otherwise,
 * e.g. `partial_success` while waiting for `bound`.
 */
export function waitForBinding<
  U extends BindingBatchStatus = 'bound' | 'partial_success' | 'failed',
>(
  request: Transport,
  domain: string,
  signer: WalletSigner,
  bindingId: string,
  w: BindingWaitOptions<U> = {},
): Promise<VenueBindingBatch & { status: U }> {
  return pollUntil<VenueBindingBatch, BindingBatchStatus>(
    {
      label: `binding ${bindingId}`,
      read: () => readBinding(request, domain, signer, bindingId),
      status: (b) => b.status,
      isFinal: (b) => isFinal(b, Date.now()),
      detail,
    },
    BATCH_FINAL,
    w,
  ) as Promise<VenueBindingBatch & { status: U }>
}
