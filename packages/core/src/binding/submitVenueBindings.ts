import type {
  BindingBatchRecord,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'
import { msToIso } from '../util/time.js'
import {
  bindingBatchView,
  type VenueBindingBatchView,
} from './bindingBatchView.js'
import { BindingRouteError } from './bindingRouteError.js'
import { deriveBatchStatus } from './bindingStatus.js'
import type { BindingDeps } from './prepareVenueBindings.js'

export interface SubmittedSignature {
  readonly requestId: string
  readonly signature: string
}

/** Loads a batch or answers 404. */
export async function loadBatch(
  deps: Pick<BindingDeps, 'store'>,
  bindingId: string,
): Promise<BindingBatchRecord> {
  const batch = await deps.store.bindingBatches.get(bindingId)
  if (!batch)
    throw new BindingRouteError(
      'binding_not_found',
      `binding ${bindingId} not found`,
    )
  return batch
}

/**
 * Checks every signature against its issued request (it must recover to
 * the batch owner). Unknown or repeated request ids are conflicts, and so
 * is a signature for a request already accepted: in a new submission any
 * (the contract rejects duplicate request ids under any Idempotency-Key),
 * in a `replay` of the submission that was accepted a different one.
 */
export async function checkSignatures(
  deps: Pick<BindingDeps, 'binders'>,
  batch: BindingBatchRecord,
  signatures: readonly SubmittedSignature[],
  mode: 'submit' | 'replay',
): Promise<void> {
  const seen = new Set<string>()
  for (const s of signatures) {
    if (seen.has(s.requestId)) {
      throw new BindingRouteError(
        'duplicate_request_id',
        `${s.requestId} appears twice`,
      )
    }
    seen.add(s.requestId)
    const venue = batch.venues.find((v) =>
      v.requests.some((r) => r.requestId === s.requestId),
    )
    const request = venue?.requests.find((r) => r.requestId === s.requestId)
    if (!venue || !request) {
      throw new BindingRouteError(
        'unknown_request_id',
        `${s.requestId} is not a sign request of this binding`,
      )
    }
    const accepted = venue.signatures[s.requestId]
    if (
      accepted !== undefined &&
      (mode === 'submit' ||
        accepted.toLowerCase() !== s.signature.toLowerCase())
    ) {
      throw new BindingRouteError(
        'signature_already_accepted',
        mode === 'submit'
          ? `a signature for ${s.requestId} was already accepted; to read the binding's state, resend the original submission with its Idempotency-Key or GET the binding`
          : `a signature for ${s.requestId} was already accepted and cannot be replaced`,
      )
    }
    if (
      !(await deps.binders[venue.target.venue].verify(
        request,
        s.signature,
        batch.owner,
      ))
    ) {
      throw new BindingRouteError(
        'signature_mismatch',
        `the signature for ${s.requestId} does not recover to ${batch.owner}`,
      )
    }
  }
}

/**
 * Accepts signatures durably. A venue whose requests are all signed is
 * queued for the binding worker; an incomplete subset waits for the rest.
 */
export async function submitVenueBindings(
  deps: Pick<BindingDeps, 'store' | 'clock' | 'binders'>,
  bindingId: string,
  signatures: readonly SubmittedSignature[],
): Promise<VenueBindingBatchView> {
  // optimistic: each write raises the batch's fence and requires the one
  // it read, so a concurrent submit or worker write is never overwritten
  for (let attempt = 0; attempt < 8; attempt++) {
    const batch = await loadBatch(deps, bindingId)
    const now = deps.clock.now()
    if (Date.parse(batch.expiresAt) <= now) {
      throw new BindingRouteError(
        'binding_expired',
        'this binding session has expired; prepare a new one',
      )
    }
    await checkSignatures(deps, batch, signatures, 'submit')
    const venues: BindingVenueEntry[] = batch.venues.map((v) => {
      const mine = signatures.filter((s) =>
        v.requests.some((r) => r.requestId === s.requestId),
      )
      if (mine.length === 0 || v.status !== 'awaiting_signatures') return v
      const all = { ...v.signatures }
      for (const s of mine) all[s.requestId] = s.signature
      const complete = v.requests.every((r) => r.requestId in all)
      return { ...v, signatures: all, status: complete ? 'queued' : v.status }
    })
    const status = deriveBatchStatus(venues)
    const updated = await deps.store.bindingBatches.update(
      batch.id,
      {
        venues,
        status,
        fence: batch.fence + 1,
        ...(status === 'processing' ? { nextCheckAt: null } : {}),
        updatedAt: msToIso(now),
      },
      { fence: batch.fence },
    )
    if (updated) return bindingBatchView(updated, now)
  }
  throw new BindingRouteError(
    'binding_busy',
    'the binding kept changing while submitting; retry with the same Idempotency-Key',
  )
}
