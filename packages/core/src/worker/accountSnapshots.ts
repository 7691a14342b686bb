import type {
  AccountSnapshotRecord,
  BoundAccount,
} from '../domain/accountSnapshot.js'
import type { VenueId } from '../domain/venue.js'
import type {
  VenueBalance,
  VenueCredential,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { msToIso } from '../util/time.js'
import { within } from '../util/within.js'
import { ownerShard } from './ownerShard.js'
import { workerCredential } from './resolveCredential.js'
import { positionsReadAt } from './shareAccountReads.js'
import {
  accountKey,
  dueIdleAccounts,
  idleReadsPerTick,
  positionsFingerprint,
  SNAPSHOT_REFRESH_MS,
  snapshotWriteDue,
  type WrittenSnapshot,
} from './snapshotSchedule.js'
import type { WorkerDeps } from './workerDeps.js'

/** A positions read of one account, as the sweep or an idle refresh got it. */
export interface AccountRead {
  readonly owner: string
  readonly venue: VenueId
  readonly cred: VenueCredential
  readonly positions: readonly VenuePosition[]
  /** Unix ms the read was sent */
  readonly readAt: number
}

interface AccountSnapshotOptions {
  /** @default SNAPSHOT_REFRESH_MS */
  readonly refreshMs?: number | undefined
  /** ms between ticks @default 2_000 (at most half the refresh period) */
  readonly tickMs?: number | undefined
}

/** What one tick did. */
interface SnapshotTick {
  /** idle accounts read */
  readonly read: number
  /** snapshots written */
  readonly written: number
}

interface AccountSnapshots {
  /** ms between ticks */
  readonly tickMs: number
  /** Notes a positions read the monitor sweep made (not awaited). */
  observe(read: AccountRead): void
  /**
   * Reads these accounts now (our own fills applied to a cached read
   * serve, else a read at urgent priority) and writes their snapshots at
   * once, balances kept. Never rejects: an account that cannot be read
   * now is left to the next periodic read.
   */
  refreshNow(
    accounts: readonly { readonly owner: string; readonly venue: VenueId }[],
  ): Promise<void>
  /**
   * One round: reads the idle accounts due (bound, in this worker's shard,
   * not read by the sweep lately) within their venue's allowance, at
   * `history` priority, then writes every snapshot due in one put.
   */
  tick(): Promise<SnapshotTick>
}

/**
 * How long a task or order waits for its accounts' fresh read
 * (`refreshNow`) before it goes on: a read the venue's budget holds back
 * is left to the periodic one (it finishes on its own).
 */
const REFRESH_WAIT_MS = 2_000

/** Snapshots written at most per tick; the rest wait for the next. */
const WRITES_PER_TICK = 1_000
/** Bound accounts read per page of the store's list. */
const PAGE = 2_000

/**
 * The worker's account snapshots, what `GET /v1/positions` and
 * `/v1/balances` serve. Accounts with running tasks come from the positions
 * reads the sweep makes anyway; bound accounts without one are read about
 * once a refresh period, spread by a hash, a venue's idle reads limited to
 * a share of its routine read rate and sent behind every routine read. A
 * snapshot is written when its positions changed, else about twice a
 * refresh period, so writes stay bounded however often the sweep reads.
 */
export function createAccountSnapshots(
  deps: WorkerDeps,
  options: AccountSnapshotOptions = {},
): AccountSnapshots {
  const refreshMs = options.refreshMs ?? SNAPSHOT_REFRESH_MS
  const tickMs = options.tickMs ?? Math.min(2_000, refreshMs / 2)
  /** the latest read of each account, not written yet */
  const pending = new Map<string, AccountRead>()
  /** what this worker last wrote of each account */
  const written = new Map<string, WrittenSnapshot>()
  /** when the sweep last read each account */
  const sweptAt = new Map<string, number>()
  /** when this worker last read each idle account (or tried to) */
  const idleAt = new Map<string, number>()
  let bound: BoundAccount[] = []
  let listedAt = -Infinity

  const keyOf = (r: {
    owner: string
    venue: VenueId
    accountIndex: string | null
  }) => accountKey(r.owner, r.venue, r.accountIndex)

  async function listBound(now: number): Promise<void> {
    // bindings change rarely: listed a few times a refresh period
    if (now - listedAt < Math.min(15_000, refreshMs / 2)) return
    listedAt = now
    const mine = await ownerShard(deps, now)
    const all: BoundAccount[] = []
    for (;;) {
      const last = all[all.length - 1]
      const page = await deps.store.accountSnapshots.listBound({
        ...(last ? { after: { owner: last.owner, venue: last.venue } } : {}),
        limit: PAGE,
      })
      all.push(...page)
      if (page.length < PAGE) break
    }
    bound = all.filter((a) => mine(a.owner))
  }

  async function readIdle(account: BoundAccount): Promise<void> {
    const adapter = deps.adapters[account.venue]
    const sentAt = deps.clock.now()
    const cred = await workerCredential(
      deps,
      account.owner,
      account.venue,
      sentAt,
    )
    const positions = await adapter.positions(cred, {
      // a snapshot a task's last read left serves
      maxAgeMs: refreshMs / 2,
      priority: 'history',
    })
    pending.set(keyOf(account), {
      owner: account.owner,
      venue: account.venue,
      cred,
      positions,
      readAt: positionsReadAt(positions) ?? sentAt,
    })
  }

  /** Reads a tick may send to `venue` beyond the sweep's (see idleReadsPerTick). */
  const allowance = (venue: VenueId) =>
    idleReadsPerTick(deps.adapters[venue].accountReadsPerMinute?.(), tickMs)

  /**
   * The balance to write beside each read; null when none was read (the
   * stored one stays, with its own older read time). Hyperliquid and
   * Lighter serve the positions read's own, sending nothing; a balance
   * that took a request of its own (Aster) counts against the venue's
   * allowance for the tick, so each venue's are asked in turn and the rest
   * wait for a later write once it is spent.
   */
  async function balancesOf(
    reads: readonly AccountRead[],
  ): Promise<Map<AccountRead, VenueBalance | null>> {
    const out = new Map<AccountRead, VenueBalance | null>()
    const byVenue = new Map<VenueId, AccountRead[]>()
    for (const r of reads) {
      const list = byVenue.get(r.venue)
      if (list) list.push(r)
      else byVenue.set(r.venue, [r])
    }
    await Promise.all(
      [...byVenue].map(async ([venue, list]) => {
        const adapter = deps.adapters[venue]
        let sent = 0
        const cap = allowance(venue)
        for (const read of list) {
          if (!adapter.balances || sent >= cap) {
            out.set(read, null)
            continue
          }
          const askedAt = deps.clock.now()
          try {
            const balance = await adapter.balances(read.cred, {
              maxAgeMs: refreshMs,
              priority: 'history',
            })
            if (balance.at >= askedAt) sent++
            out.set(read, balance)
          } catch {
            sent++
            out.set(read, null)
          }
        }
      }),
    )
    return out
  }

  async function flush(): Promise<number> {
    const due: AccountRead[] = []
    for (const [key, read] of pending) {
      const fingerprint = positionsFingerprint(read.positions)
      if (
        snapshotWriteDue(written.get(key), fingerprint, read.readAt, refreshMs)
      ) {
        due.push(read)
      } else {
        pending.delete(key)
      }
    }
    due.sort((a, b) => a.readAt - b.readAt)
    const batch = due.slice(0, WRITES_PER_TICK)
    if (batch.length === 0) return 0
    await write(batch, await balancesOf(batch))
    return batch.length
  }

  /**
   * Puts the reads' snapshots (with the balances read beside them; none:
   * the stored one stays) and notes them written; a read that arrived
   * meanwhile and is newer stays pending.
   */
  async function write(
    reads: readonly AccountRead[],
    balances: ReadonlyMap<AccountRead, VenueBalance | null> = new Map(),
  ): Promise<void> {
    await deps.store.accountSnapshots.put(
      reads.map((read): AccountSnapshotRecord => {
        const balance = balances.get(read) ?? null
        return {
          owner: read.owner,
          venue: read.venue,
          accountIndex: read.cred.accountIndex,
          positions: read.positions,
          readAt: msToIso(read.readAt),
          balance: balance && {
            equityUsd: balance.equityUsd,
            availableUsd: balance.availableUsd,
            marginUsedUsd: balance.marginUsedUsd,
          },
          balanceReadAt: balance && msToIso(balance.at),
        }
      }),
    )
    for (const read of reads) {
      const key = keyOf({ ...read, accountIndex: read.cred.accountIndex })
      if ((pending.get(key)?.readAt ?? -Infinity) <= read.readAt) {
        pending.delete(key)
      }
      written.set(key, {
        fingerprint: positionsFingerprint(read.positions),
        readAt: read.readAt,
      })
    }
  }

  /** One account read now, for `refreshNow`. */
  async function readNow(owner: string, venue: VenueId): Promise<AccountRead> {
    const sentAt = deps.clock.now()
    const cred = await workerCredential(deps, owner, venue, sentAt)
    const positions = await deps.adapters[venue].positions(cred, {
      // a read our own fills were applied to is as fresh as any
      maxAgeMs: refreshMs / 2,
      priority: 'urgent',
    })
    return {
      owner,
      venue,
      cred,
      positions,
      readAt: positionsReadAt(positions) ?? sentAt,
    }
  }

  return {
    tickMs,
    async refreshNow(accounts) {
      const reads = await Promise.all(
        accounts.map(({ owner, venue }) =>
          within(readNow(owner, venue), REFRESH_WAIT_MS),
        ),
      )
      const got = reads.filter((r): r is AccountRead => r !== null)
      if (got.length === 0) return
      // a write that fails is left to the periodic one
      await write(got).catch(() => undefined)
    },
    observe(read) {
      const key = keyOf({ ...read, accountIndex: read.cred.accountIndex })
      sweptAt.set(key, deps.clock.now())
      const last = pending.get(key)
      if (!last || last.readAt <= read.readAt) pending.set(key, read)
    },
    async tick() {
      const now = deps.clock.now()
      await listBound(now)
      const idle = dueIdleAccounts(bound, {
        now,
        refreshMs,
        active: (key) => now - (sweptAt.get(key) ?? -Infinity) < refreshMs,
        lastRead: (key) =>
          Math.max(
            idleAt.get(key) ?? -Infinity,
            written.get(key)?.readAt ?? -Infinity,
          ),
        allowance,
      })
      for (const a of idle) idleAt.set(keyOf(a), now)
      // a read the budget or the venue refused is tried a period later
      const reads = await Promise.allSettled(idle.map(readIdle))
      return {
        read: reads.filter((r) => r.status === 'fulfilled').length,
        written: await flush(),
      }
    },
  }
}
