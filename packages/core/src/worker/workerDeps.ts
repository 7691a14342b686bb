import type { VenueId } from '../domain/venue.js'
import type { Clock } from '../ports/clock.js'
import type { Secrets } from '../ports/secrets.js'
import type { Store } from '../ports/store.js'
import type { VenueAdapter } from '../ports/venueAdapter.js'
import type { VenueBinder } from '../ports/venueBinder.js'

export interface WorkerLogger {
  info(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

/** What the worker engines need, wired at the composition root. */
export interface WorkerDeps {
  readonly store: Store
  readonly clock: Clock
  readonly adapters: Readonly<Record<VenueId, VenueAdapter>>
  /** venue binders; a venue without one is left to other workers */
  readonly binders?: Readonly<Partial<Record<VenueId, VenueBinder>>> | undefined
  readonly secrets: Secrets
  readonly workerId: string
  /** how long a claim is held before another worker may take it */
  readonly leaseMs: number
  /** how long the funding APY must stay under minFundingApy to close */
  readonly fundingGraceMs: number
  readonly logger: WorkerLogger
}

/** Channel the API notifies when it has made work due. */
export const WORK_CHANNEL = 'dn_work'
