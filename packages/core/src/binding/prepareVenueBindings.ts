import { createHash, randomUUID } from 'node:crypto'
import { verifyWalletSignature } from '../auth/verifyWalletSignature.js'
import type {
  BindingBatchRecord,
  BindingVenueEntry,
  VenueTarget,
} from '../domain/bindingBatch.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import { AppError } from '../errors/appError.js'
import { VenueUnavailableError } from '../errors/venue.js'
import type { Clock } from '../ports/clock.js'
import type { Secrets } from '../ports/secrets.js'
import type { Store } from '../ports/store.js'
import type { BindingConfig, VenueBinder } from '../ports/venueBinder.js'
import { canonicalJson } from '../util/canonicalJson.js'
import { msToIso } from '../util/time.js'
import { credentialAad } from '../worker/resolveCredential.js'
import {
  bindingBatchView,
  type VenueBindingBatchView,
} from './bindingBatchView.js'
import { BindingRouteError } from './bindingRouteError.js'
import { deriveBatchStatus } from './bindingStatus.js'

export interface BindingDeps {
  readonly store: Store
  readonly clock: Clock
  readonly binders: Readonly<Record<VenueId, VenueBinder>>
  readonly secrets: Secrets
  /** BINDING_AUTH_DOMAIN */
  readonly authDomain: string
  readonly config: BindingConfig
}

export interface PrepareVenueBindingsParameters {
  readonly owner: string
  readonly venues: readonly VenueTarget[]
  readonly authorization: {
    readonly nonce: string
    readonly expiresAt: number
    readonly signature: string
  }
}

/** A binding session lasts this long. */
export const BINDING_SESSION_MS = 10 * 60_000
/** Prepares allowed per owner in any 10 minutes. */
export const PREPARES_PER_WINDOW = 20

/** Additional data binding a pending credential to its batch and venue. */
export function pendingCredentialAad(batchId: string, venue: VenueId): string {
  return `binding-batch|${batchId}|${venue}`
}

/**
 * Prepares a binding batch (contract "Rules for prepare"): a wallet-signed
 * request, idempotent per (owner, nonce); venues already usable answer
 * `already_bound`; the `hl` and Lighter accounts are checked before
 * anything is generated or saved; then each remaining venue gets a freshly
 * generated credential (stored encrypted) and its sign requests, all saved
 * in one insert.
 */
export async function prepareVenueBindings(
  deps: BindingDeps,
  p: PrepareVenueBindingsParameters,
): Promise<VenueBindingBatchView> {
  const owner = p.owner.toLowerCase()
  const { nonce, expiresAt, signature } = p.authorization
  const payload = { owner, venues: p.venues, nonce, expiresAt }
  await verifyWalletSignature({
    domain: deps.authDomain,
    action: 'prepare',
    owner,
    payload,
    signature,
    expiresAt,
    nowMs: deps.clock.now(),
  }).catch((err: unknown) => {
    throw err instanceof AppError
      ? new BindingRouteError(err.code, err.message)
      : err
  })
  const requestHash = createHash('sha256')
    .update(canonicalJson(payload))
    .digest('hex')
  const replay = await sameNonce(deps, owner, nonce, requestHash)
  if (replay) return replay

  const now = deps.clock.now()
  const recent = await deps.store.bindingBatches.countCreatedSince(
    owner,
    msToIso(now - BINDING_SESSION_MS),
  )
  if (recent >= PREPARES_PER_WINDOW) {
    throw new BindingRouteError(
      'prepare_rate_limited',
      `at most ${PREPARES_PER_WINDOW} binding batches per owner per 10 minutes`,
    )
  }
  const plan = await planVenues(deps, owner, p.venues)
  const id = randomUUID()
  const venues: BindingVenueEntry[] = []
  for (const { target, alreadyBound } of plan) {
    if (alreadyBound) {
      venues.push(entry(target, 'already_bound', null))
      continue
    }
    const prepared = await deps.binders[target.venue].prepare(
      owner,
      target,
      deps.config,
    )
    venues.push({
      ...entry(target, 'awaiting_signatures', randomUUID()),
      requests: prepared.requests,
      credentialRef: prepared.credentialRef,
      credentialCiphertext: deps.secrets.encrypt(
        prepared.secret,
        pendingCredentialAad(id, target.venue),
      ),
      context: prepared.context,
    })
  }
  const at = msToIso(now)
  const batch: BindingBatchRecord = {
    id,
    owner,
    nonce,
    requestHash,
    status: deriveBatchStatus(venues),
    expiresAt: msToIso(now + BINDING_SESSION_MS),
    venues,
    createdAt: at,
    updatedAt: at,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    // the worker marks unsigned venues expired when the session ends
    nextCheckAt: msToIso(now + BINDING_SESSION_MS),
  }
  try {
    await deps.store.bindingBatches.insert(batch)
  } catch (err) {
    // a concurrent prepare with the same nonce won: answer as its replay
    const again = await sameNonce(deps, owner, nonce, requestHash)
    if (again) return again
    throw err
  }
  return bindingBatchView(batch, now)
}

function entry(
  target: VenueTarget,
  status: BindingVenueEntry['status'],
  sessionId: string | null,
): BindingVenueEntry {
  return {
    target,
    status,
    sessionId,
    code: null,
    retryable: null,
    requests: [],
    signatures: {},
    credentialRef: null,
    credentialCiphertext: null,
    context: {},
  }
}

async function sameNonce(
  deps: BindingDeps,
  owner: string,
  nonce: string,
  requestHash: string,
): Promise<VenueBindingBatchView | undefined> {
  const existing = await deps.store.bindingBatches.getByNonce(owner, nonce)
  if (!existing) return undefined
  if (existing.requestHash !== requestHash) {
    throw new BindingRouteError(
      'nonce_conflict',
      'this nonce was used for a different prepare request; sign a new nonce',
    )
  }
  return bindingBatchView(existing, deps.clock.now())
}

/**
 * Decides per venue: already bound, or to bind (after the rebind rules and
 * the account preflight). Throws before anything is created.
 */
async function planVenues(
  deps: BindingDeps,
  owner: string,
  targets: readonly VenueTarget[],
): Promise<{ target: VenueTarget; alreadyBound: boolean }[]> {
  const plan: { target: VenueTarget; alreadyBound: boolean }[] = []
  for (const target of targets) {
    const binder = deps.binders[target.venue]
    const existing = await deps.store.bindings.get(owner, target.venue)
    // a stored credential that no longer decrypts is as good as none (the
    // worker marks it unusable when it first fails to read it)
    const broken =
      existing?.status === 'unusable' ||
      (existing !== undefined && !credentialReads(deps.secrets, existing))
    let usable = false
    if (!broken && existing?.status === 'bound' && existing.credentialRef) {
      usable = await binder
        .isUsable(owner, existing.credentialRef)
        .catch((cause: unknown) => {
          throw new BindingRouteError(
            'venue_account_check_unavailable',
            `${target.venue} could not verify the existing binding; retry later`,
            cause,
          )
        })
    }
    if (existing && !target.rebind) {
      if (usable) {
        plan.push({ target, alreadyBound: true })
        continue
      }
      throw new BindingRouteError(
        'rebind_required',
        `the ${target.venue} binding is no longer usable; prepare again with rebind: true`,
      )
    }
    if (existing && target.rebind) {
      // orders on a broken binding's venue can move again only once it is
      // rebound: they must not block the rebind that repairs them
      const active =
        (await deps.store.tasks.countActiveByOwner(owner)) +
        (await deps.store.orders.countActiveByOwner(
          owner,
          broken ? target.venue : undefined,
        ))
      if (active > 0) {
        throw new BindingRouteError(
          'rebind_blocked',
          `${active} task(s) or order(s) are active; close or cancel them before rebinding`,
        )
      }
    }
    if (target.venue !== 'aster') {
      let found: 'found' | 'missing' | 'not_owned'
      try {
        found = await binder.findAccount(owner, target)
      } catch (cause) {
        if (!(cause instanceof VenueUnavailableError)) throw cause
        throw new BindingRouteError(
          'venue_account_check_unavailable',
          `${target.venue} account lookup failed; this does not mean the account is missing, retry later`,
          cause,
        )
      }
      if (found === 'missing') {
        throw new BindingRouteError(
          'venue_account_not_found',
          `${target.venue} has no account for ${owner}; deposit or create one first`,
        )
      }
      if (found === 'not_owned') {
        throw new BindingRouteError(
          'account_not_owned',
          `${target.venue} account ${target.accountIndex} does not belong to ${owner}`,
        )
      }
    }
    plan.push({ target, alreadyBound: false })
  }
  return plan
}

/** True unless the binding holds a credential that does not decrypt. */
function credentialReads(
  secrets: Secrets,
  binding: VenueBindingRecord,
): boolean {
  if (binding.credentialCiphertext === null) return true
  try {
    secrets.decrypt(
      binding.credentialCiphertext,
      credentialAad(binding.owner, binding.venue),
    )
    return true
  } catch {
    return false
  }
}
