import type { Clock } from '../ports/clock.js'

/** A value read from a venue, with when it was read. */
export interface Snapshot<T> {
  readonly value: T
  /** Unix ms the read was sent */
  readonly at: number
}

/**
 * One venue read shared by every caller: a snapshot younger than the
 * caller's `maxAgeMs` is served as is, and callers that arrive while a
 * read is in flight wait for that read instead of sending their own. So
 * a thousand tasks on one venue cost one request, not a thousand.
 */
export interface SharedRead<K, T, C = undefined> {
  /**
   * @param context what a read this call sends needs beyond the key (a
   *   credential, a priority); a caller served a snapshot or a read in
   *   flight does not send one
   */
  get(key: K, maxAgeMs: number, context?: C): Promise<Snapshot<T>>
  /** The last snapshot of `key`, however old, without reading. */
  peek(key: K): Snapshot<T> | undefined
  /**
   * Changes the held snapshot (our own fill), keeping when it was read.
   * Reads in flight may predate the change: they are neither joined by
   * later callers nor kept.
   */
  amend(key: K, update: (value: T) => T): void
  /** Forgets `key`: the next get reads again. */
  drop(key: K): void
}

export interface SharedReadOptions {
  /**
   * Snapshots older than this are forgotten (looked for at most once in
   * that time), for keys that are never asked again (a funding read per
   * account and hour) @default kept until dropped
   */
  readonly forgetAfterMs?: number | undefined
}

/**
 * @param read sends the venue request for `key`, with the context of the
 *   caller that asked first
 * @example const marks = createSharedRead(clock, () => readAllMarks())
 */
export function createSharedRead<K, T, C = undefined>(
  clock: Clock,
  read: (key: K, context: C | undefined) => Promise<T>,
  options: SharedReadOptions = {},
): SharedRead<K, T, C> {
  const snapshots = new Map<K, Snapshot<T>>()
  const forgetAfter = options.forgetAfterMs
  let forgotAt = clock.now()
  const forgetOld = () => {
    if (forgetAfter === undefined) return
    const now = clock.now()
    if (now - forgotAt < forgetAfter) return
    forgotAt = now
    for (const [key, snap] of snapshots) {
      if (now - snap.at > forgetAfter) snapshots.delete(key)
    }
  }
  const inFlight = new Map<K, Promise<Snapshot<T>>>()
  // a drop makes reads already in flight stale: they serve their own
  // callers but are not kept
  const generation = new Map<K, number>()
  const supersede = (key: K) => {
    inFlight.delete(key)
    generation.set(key, (generation.get(key) ?? 0) + 1)
  }
  return {
    get(key, maxAgeMs, context) {
      forgetOld()
      const hit = snapshots.get(key)
      if (hit && clock.now() - hit.at <= maxAgeMs) return Promise.resolve(hit)
      const pending = inFlight.get(key)
      if (pending) return pending
      const at = clock.now()
      const gen = generation.get(key) ?? 0
      const p = read(key, context)
        .then((value) => {
          const snap = { value, at }
          if ((generation.get(key) ?? 0) !== gen) return snap
          const newer = snapshots.get(key)
          if (!newer || newer.at <= at) snapshots.set(key, snap)
          return snapshots.get(key) ?? snap
        })
        .finally(() => {
          if (inFlight.get(key) === p) inFlight.delete(key)
        })
      inFlight.set(key, p)
      return p
    },
    peek: (key) => snapshots.get(key),
    amend(key, update) {
      const old = snapshots.get(key)
      if (old) snapshots.set(key, { value: update(old.value), at: old.at })
      supersede(key)
    },
    drop(key) {
      snapshots.delete(key)
      supersede(key)
    },
  }
}
