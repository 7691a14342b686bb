import type { BoundAccount } from '../domain/accountSnapshot.js'
import type { VenueId } from '../domain/venue.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { fnv1a } from './ownerShard.js'

/**
 * How old a stored account snapshot may grow: an account no running task
 * watches is read about this often, and one the sweep reads is written at
 * least this often when nothing else about it changes.
 */
export const SNAPSHOT_REFRESH_MS = 60_000

/**
 * The share of a venue's routine positions reads a minute
 * (`accountReadsPerMinute`) that reads of idle accounts may take, and as
 * much again balances reads of their own (Aster); they go at `history`
 * priority besides, behind every routine read.
 */
const IDLE_READ_SHARE = 0.25

/** Idle reads a tick on a venue whose reads count per account (Lighter). */
export const IDLE_READS_PER_TICK = 8

/** An account's key in the worker's maps. */
export function accountKey(
  owner: string,
  venue: VenueId,
  accountIndex: string | null,
): string {
  return `${owner.toLowerCase()}|${venue}|${accountIndex ?? ''}`
}

/**
 * An account's own refresh period, 1 to 1.05 times `refreshMs` by a hash
 * of its key: accounts first read together fall due apart.
 */
export function refreshAgeMs(key: string, refreshMs: number): number {
  return Math.round(refreshMs * (1 + (fnv1a(key) % 1000) / 20_000))
}

/**
 * What about a snapshot counts as a change worth a write: each position's
 * market, size, entry, leverage, margin mode and liquidation price. Marks
 * (and the PnL and equity that follow them) move all the time; they are
 * written with the refresh period instead.
 */
export function positionsFingerprint(
  positions: readonly VenuePosition[],
): string {
  return positions
    .map((p) =>
      [
        p.market,
        p.size,
        p.entryPrice,
        p.leverage,
        p.marginMode,
        p.liquidationPrice ?? '',
      ].join(','),
    )
    .sort()
    .join(';')
}

/** The stored (or last written) state of an account's snapshot. */
export interface WrittenSnapshot {
  readonly fingerprint: string
  /** Unix ms of the stored positions read */
  readonly readAt: number
}

/**
 * Whether a read at `readAt` showing `fingerprint` is written: always
 * when nothing is stored or what it shows changed (an older read never);
 * otherwise once the
 * stored one is half the refresh period old, so the stored age stays
 * under the period between reads (an account the sweep reads every 10 s
 * is written about twice a minute, not six times).
 */
export function snapshotWriteDue(
  stored: WrittenSnapshot | undefined,
  fingerprint: string,
  readAt: number,
  refreshMs: number,
): boolean {
  if (!stored) return true
  if (readAt < stored.readAt) return false
  // our own fills are applied to the venue read they amend: the same read
  // time, showing more
  if (stored.fingerprint !== fingerprint) return true
  return readAt - stored.readAt >= refreshMs / 2
}

/**
 * Reads a tick may send to a venue for idle accounts: IDLE_READ_SHARE of
 * the routine reads a minute, over the tick; IDLE_READS_PER_TICK where
 * reads count only against the account's own limit. At least one, so
 * every idle account is read eventually.
 */
export function idleReadsPerTick(
  readsPerMinute: number | undefined,
  tickMs: number,
): number {
  if (readsPerMinute === undefined || !(readsPerMinute > 0)) {
    return IDLE_READS_PER_TICK
  }
  return Math.max(
    1,
    Math.floor((readsPerMinute * IDLE_READ_SHARE * tickMs) / 60_000),
  )
}

/**
 * The idle accounts to read now: bound accounts no sweep read lately
 * (`active`), due when never read or older than their refresh age (the
 * later of the stored read and this worker's own), the oldest first, at
 * most `allowance(venue)` on each venue.
 */
export function dueIdleAccounts(
  accounts: readonly BoundAccount[],
  options: {
    readonly now: number
    readonly refreshMs: number
    readonly active: (key: string) => boolean
    /** Unix ms this worker last read the account, if it did */
    readonly lastRead: (key: string) => number | undefined
    readonly allowance: (venue: VenueId) => number
  },
): BoundAccount[] {
  const due: { account: BoundAccount; at: number }[] = []
  for (const a of accounts) {
    const key = accountKey(a.owner, a.venue, a.accountIndex)
    if (options.active(key)) continue
    const stored = a.readAt === null ? -Infinity : Date.parse(a.readAt)
    const at = Math.max(stored, options.lastRead(key) ?? -Infinity)
    if (options.now - at < refreshAgeMs(key, options.refreshMs)) continue
    due.push({ account: a, at })
  }
  due.sort((x, y) => x.at - y.at)
  const taken = new Map<VenueId, number>()
  const out: BoundAccount[] = []
  for (const { account } of due) {
    const n = taken.get(account.venue) ?? 0
    if (n >= options.allowance(account.venue)) continue
    taken.set(account.venue, n + 1)
    out.push(account)
  }
  return out
}
