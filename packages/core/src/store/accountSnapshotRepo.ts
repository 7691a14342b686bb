import type {
  AccountSnapshotRecord,
  SnapshotBalance,
  SnapshotPosition,
} from '../domain/accountSnapshot.js'
import type { VenueId } from '../domain/venue.js'
import type { AccountSnapshotRepo } from '../ports/store.js'
import { microsToIso } from '../util/time.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/** Rows per insert: seven parameters each, well inside SQLite's limit. */
const CHUNK = 500

/** The key column: the Lighter account index, '' where there is none. */
const accountKey = (accountIndex: string | null) => accountIndex ?? ''

/**
 * The `bound` bindings' rows joined to the snapshot of the account each
 * is bound to now (a rebind to another Lighter account shows none until
 * that one is read).
 */
function boundAccounts(scope: RepoScope) {
  return scope
    .db()
    .selectFrom('venue_bindings as b')
    .leftJoin('account_snapshots as s', (j) =>
      j
        .onRef('s.owner', '=', 'b.owner')
        .onRef('s.venue', '=', 'b.venue')
        .on((eb) =>
          eb('s.account', '=', eb.fn.coalesce('b.account_index', eb.val(''))),
        ),
    )
    .where('b.status', '=', 'bound')
}

/** Account snapshots, one row per (owner, venue, account). */
export function accountSnapshotRepo(scope: RepoScope): AccountSnapshotRepo {
  return {
    async put(snapshots) {
      // the last of several for one account wins, as if put in turn
      const byKey = new Map<string, AccountSnapshotRecord>()
      for (const s of snapshots) {
        byKey.set(`${s.owner}|${s.venue}|${accountKey(s.accountIndex)}`, s)
      }
      const rows = [...byKey.values()].map((s) => ({
        owner: s.owner,
        venue: s.venue,
        account: accountKey(s.accountIndex),
        positions: JSON.stringify(s.positions),
        read_at: storedMicros(s.readAt),
        balance: s.balance === null ? null : JSON.stringify(s.balance),
        balance_read_at:
          s.balanceReadAt === null ? null : storedMicros(s.balanceReadAt),
      }))
      for (let i = 0; i < rows.length; i += CHUNK) {
        await scope
          .db()
          .insertInto('account_snapshots')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) =>
            oc
              .columns(['owner', 'venue', 'account'])
              .doUpdateSet((eb) => ({
                positions: eb.ref('excluded.positions'),
                read_at: eb.ref('excluded.read_at'),
                // a snapshot without a balance keeps the stored one
                balance: eb.fn.coalesce(
                  'excluded.balance',
                  'account_snapshots.balance',
                ),
                balance_read_at: eb.fn.coalesce(
                  'excluded.balance_read_at',
                  'account_snapshots.balance_read_at',
                ),
              }))
              .where('account_snapshots.read_at', '<=', (eb) =>
                eb.ref('excluded.read_at'),
              ),
          )
          .execute()
      }
    },

    async listBound({ after, limit }) {
      let q = boundAccounts(scope).select([
        'b.owner',
        'b.venue',
        'b.account_index',
        's.read_at',
      ])
      if (after) {
        q = q.where((eb) =>
          eb.or([
            eb('b.owner', '>', after.owner),
            eb.and([
              eb('b.owner', '=', after.owner),
              eb('b.venue', '>', after.venue),
            ]),
          ]),
        )
      }
      const rows = await q
        .orderBy('b.owner')
        .orderBy('b.venue')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        owner: r.owner,
        venue: r.venue as VenueId,
        accountIndex: r.account_index,
        readAt: r.read_at === null ? null : microsToIso(r.read_at),
      }))
    },

    async listByOwner(owner, venues) {
      if (venues.length === 0) return []
      const rows = await boundAccounts(scope)
        .select([
          'b.venue',
          'b.account_index',
          's.positions',
          's.read_at',
          's.balance',
          's.balance_read_at',
        ])
        .where('b.owner', '=', owner)
        .where('b.venue', 'in', [...venues])
        .orderBy('b.venue')
        .execute()
      return rows.map((r) => {
        const venue = r.venue as VenueId
        const accountIndex = r.account_index
        return {
          venue,
          accountIndex,
          snapshot:
            r.read_at === null || r.positions === null
              ? null
              : {
                  owner,
                  venue,
                  accountIndex,
                  positions: JSON.parse(r.positions) as SnapshotPosition[],
                  balance:
                    r.balance === null
                      ? null
                      : (JSON.parse(r.balance) as SnapshotBalance),
                  readAt: microsToIso(r.read_at),
                  balanceReadAt:
                    r.balance_read_at === null
                      ? null
                      : microsToIso(r.balance_read_at),
                },
        }
      })
    },
  }
}
