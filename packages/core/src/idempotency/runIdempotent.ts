import type { IdempotencyRecord } from '../domain/idempotency.js'
import { ConflictError } from '../errors/domain.js'
import { errorBody, isAppError } from '../errors/errorBody.js'
import type { Repos, Store } from '../ports/store.js'

export interface CommandResponse {
  readonly status: number
  /** serialized JSON, stored and replayed byte for byte */
  readonly body: string
}

export interface IdempotentOutcome extends CommandResponse {
  readonly replayed: boolean
}

/**
 * `prepare` runs outside the transaction (market data, venue checks); when
 * it fails, a stored outcome of the key is still replayed, so a retry of a
 * finished command replays even when the market has moved since. `run`
 * does the writes.
 */
export interface IdempotentCommand<P> {
  readonly prepare: () => Promise<P>
  readonly run: (tx: Repos, prepared: P) => Promise<CommandResponse>
}

export interface RunIdempotentParameters {
  readonly scope: string
  readonly key: string
  readonly method: string
  readonly path: string
  readonly fingerprint: string
  readonly createdAt: string
}

/**
 * Error outcomes that are decisions of the command and so are replayed.
 * Input, auth, rate and availability errors ran nothing and are not stored:
 * the client may fix the request or retry later under the same key.
 */
const STORED_ERROR_STATUSES: ReadonlySet<number> = new Set([403, 404, 409, 422])

class Superseded extends Error {
  constructor(readonly existing: IdempotencyRecord) {
    super('superseded by an earlier request with the same key')
  }
}

/**
 * Runs a command and stores its response under (scope, key) in the SAME
 * transaction. The command runs first and the key is claimed with its
 * outcome: if an earlier request holds the key, this transaction rolls back
 * (undoing the command) and the earlier response is replayed. On PostgreSQL
 * the claim of a key that a concurrent transaction inserted waits for it, so
 * 100 simultaneous duplicates yield one command and 99 identical replays.
 *
 * 403/404/409/422 AppErrors thrown by the command are outcomes too (stored
 * and replayed); anything else rolls back and propagates, leaving the key
 * free for a retry.
 */
export async function runIdempotent<P>(
  store: Store,
  p: RunIdempotentParameters,
  command: IdempotentCommand<P>,
): Promise<IdempotentOutcome> {
  let prepared: P
  try {
    prepared = await command.prepare()
  } catch (err) {
    // a retry of a finished command replays even when the market has
    // moved since; a new key is read only here, so a new command costs
    // no read of its own before its transaction
    const first = await store.idempotency.get(p.scope, p.key)
    if (first) return replay(first, p)
    throw err
  }
  try {
    // concurrent commands share one commit; each answers once it is durable
    return await store.sharedTransaction(async (tx) => {
      let response: CommandResponse
      try {
        response = await command.run(tx, prepared)
      } catch (err) {
        if (!isAppError(err) || !STORED_ERROR_STATUSES.has(err.status)) {
          throw err
        }
        response = { status: err.status, body: JSON.stringify(errorBody(err)) }
      }
      const claim = await tx.idempotency.claim({ ...p, ...response })
      if (!claim.inserted) throw new Superseded(claim.existing)
      return { ...response, replayed: false }
    })
  } catch (err) {
    if (err instanceof Superseded) return replay(err.existing, p)
    throw err
  }
}

function replay(
  record: IdempotencyRecord,
  p: RunIdempotentParameters,
): IdempotentOutcome {
  if (record.fingerprint !== p.fingerprint) {
    throw new ConflictError(
      'idempotency_key_reused',
      'this Idempotency-Key was used for a different request; use a new key for a new command',
    )
  }
  return { status: record.status, body: record.body, replayed: true }
}
