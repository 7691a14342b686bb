import { randomUUID } from 'node:crypto'
import { deriveBatchStatus } from '../binding/bindingStatus.js'
import { pendingCredentialAad } from '../binding/prepareVenueBindings.js'
import type {
  BindingBatchRecord,
  BindingBatchStatus,
  BindingVenueEntry,
} from '../domain/bindingBatch.js'
import { VenueUnavailableError } from '../errors/venue.js'
import { FencedOutError } from '../errors/worker.js'
import { msToIso } from '../util/time.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import { credentialAad } from './resolveCredential.js'
import type { WorkerDeps } from './workerDeps.js'

/** Batches the binding worker claims (awaiting ones only to expire them). */
export const ACTIVE_BATCH_STATUSES: readonly BindingBatchStatus[] = [
  'awaiting_signatures',
  'processing',
]

const RETRY_MS = 2_000
/** A retryable failure is tried this many times before it is final. */
const MAX_ATTEMPTS = 5

/**
 * Carries out a claimed batch: each queued (or confirming) venue is
 * completed through its binder, which sends the signed authorizations and
 * confirms them at the venue; only then is the credential stored, encrypted
 * under the owner's binding. Unsigned venues past the session end expire.
 * A venue whose outcome is uncertain stays `confirming`, even past expiry.
 */
export async function processBindingBatch(
  deps: WorkerDeps,
  batch: BindingBatchRecord,
): Promise<void> {
  const binders = deps.binders
  const now = deps.clock.now()
  const expired = Date.parse(batch.expiresAt) <= now
  let again = false
  const venues: BindingVenueEntry[] = []
  for (const v of batch.venues) {
    if (v.status === 'awaiting_signatures' && expired) {
      venues.push({
        ...v,
        status: 'expired',
        code: 'binding_expired',
        retryable: false,
      })
      continue
    }
    if (v.status !== 'queued' && v.status !== 'confirming') {
      venues.push(v)
      continue
    }
    const venue = v.target.venue
    const binder = binders?.[venue]
    if (!binder) {
      // this worker cannot bind this venue; leave it for one that can
      venues.push(v)
      again = true
      continue
    }
    const secret = deps.secrets.decrypt(
      v.credentialCiphertext ?? '',
      pendingCredentialAad(batch.id, venue),
    )
    let result: Awaited<ReturnType<typeof binder.complete>>
    try {
      result = await binder.complete(batch.owner, {
        target: v.target,
        requests: v.requests,
        signatures: v.signatures,
        credentialRef: v.credentialRef ?? '',
        secret,
        context: v.context,
      })
    } catch (err) {
      if (!(err instanceof VenueUnavailableError)) throw err
      // the authorization may or may not have reached the venue
      result = { outcome: 'confirming' }
    }
    if (result.outcome === 'bound') {
      const at = msToIso(deps.clock.now())
      await deps.store.bindings.upsert({
        id: randomUUID(),
        owner: batch.owner,
        venue,
        status: 'bound',
        accountIndex:
          v.target.accountIndex === undefined
            ? null
            : String(v.target.accountIndex),
        credentialRef: v.credentialRef,
        credentialCiphertext: deps.secrets.encrypt(
          secret,
          credentialAad(batch.owner, venue),
        ),
        // a rebind repairs an unusable binding: the new credential reads
        unusableCode: null,
        createdAt: at,
        updatedAt: at,
      })
      venues.push({ ...v, status: 'bound', code: null, retryable: null })
    } else if (result.outcome === 'confirming') {
      venues.push({ ...v, status: 'confirming' })
      again = true
    } else {
      const attempts = Number(v.context.attempts ?? '0') + 1
      const retry = result.retryable && attempts < MAX_ATTEMPTS
      venues.push({
        ...v,
        status: retry ? 'queued' : 'failed',
        code: result.code,
        retryable: result.retryable,
        context: { ...v.context, attempts: String(attempts) },
      })
      again ||= retry
    }
  }
  // a submit may have changed other venues meanwhile (it raises the fence):
  // merge our outcomes into the fresh row rather than overwrite it
  let base = batch
  let mine = venues
  for (let attempt = 0; attempt < 8; attempt++) {
    const status = deriveBatchStatus(mine)
    const nextCheck = again
      ? now + RETRY_MS
      : status === 'awaiting_signatures'
        ? Date.parse(base.expiresAt)
        : null
    const saved = await deps.store.bindingBatches.update(
      base.id,
      {
        venues: mine,
        status,
        fence: base.fence + 1,
        leaseOwner: null,
        leaseExpiresAt: null,
        nextCheckAt: nextCheck === null ? null : msToIso(nextCheck),
        updatedAt: msToIso(deps.clock.now()),
      },
      { fence: base.fence },
    )
    if (saved) {
      mine.forEach((v, i) => {
        const before = batch.venues[i]
        if (before && before.status !== v.status) {
          reportWorkerEvent(deps, {
            type: 'transition',
            kind: 'binding',
            id: batch.id,
            venue: v.target.venue,
            from: before.status,
            to: v.status,
            ms: deps.clock.now() - now,
            error: v.code ?? null,
          })
        }
      })
      return
    }
    const fresh = await deps.store.bindingBatches.get(batch.id)
    if (!fresh || fresh.leaseOwner !== deps.workerId) {
      throw new FencedOutError(`binding ${batch.id}`)
    }
    mine = fresh.venues.map((f, i) => {
      const before = batch.venues[i]
      const ours = venues[i]
      // ours wins only where we changed it and nobody else did
      return before && ours && ours !== before && f.status === before.status
        ? ours
        : f
    })
    base = fresh
  }
  throw new FencedOutError(`binding ${batch.id}`)
}
