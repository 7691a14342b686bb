import type { VenueId } from './venue.js'

/** A net position as the venue showed it; `size` signed (< 0 short). */
export interface SnapshotPosition {
  readonly market: string
  readonly size: string
  readonly entryPrice: string
  readonly markPrice: string
  readonly leverage: string
  readonly marginMode: 'cross' | 'isolated'
  readonly liquidationPrice: string | null
}

/** The account's collateral in USD, as the venue showed it. */
export interface SnapshotBalance {
  readonly equityUsd: string
  readonly availableUsd: string
  readonly marginUsedUsd: string
}

/**
 * The latest venue read of one bound account, as a worker stored it: its
 * positions and collateral, and when the read was sent. The API serves
 * positions and balances from it, never from the venue.
 */
export interface AccountSnapshotRecord {
  readonly owner: string
  readonly venue: VenueId
  /** Lighter account index; null elsewhere */
  readonly accountIndex: string | null
  readonly positions: readonly SnapshotPosition[]
  /** ISO time the positions read was sent */
  readonly readAt: string
  /** the collateral; null until the venue's balance was read */
  readonly balance: SnapshotBalance | null
  /** ISO time the balance read was sent (it may be older than positions) */
  readonly balanceReadAt: string | null
}

/** A bound account, with its snapshot's read time (null: none yet). */
export interface BoundAccount {
  readonly owner: string
  readonly venue: VenueId
  readonly accountIndex: string | null
  readonly readAt: string | null
}

/** A bound account with its latest snapshot, if any. */
export interface BoundAccountSnapshot {
  readonly venue: VenueId
  readonly accountIndex: string | null
  readonly snapshot: AccountSnapshotRecord | null
}
