import type { SnapshotPosition } from '../domain/accountSnapshot.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import { type LedgerHolder, readLedger } from '../domain/positionLedger.js'
import type { VenueId } from '../domain/venue.js'
import type { Repos } from '../ports/store.js'
import type {
  Position,
  PositionHolder,
  PositionList,
} from '../schemas/accountReads.js'
import { dec, decString } from '../util/decimal.js'
import { storeHolders } from '../worker/accountMarketLedger.js'
import {
  type AccountReadDeps,
  ageOf,
  grantedAccounts,
} from './grantedAccounts.js'

/**
 * The positions of the key owner's bound accounts (on `venue`, or every
 * venue the key grants), as the worker last read them, with the read's
 * age. Served from the store: never a venue call. An account not read yet
 * is listed with no positions and null `readAt`.
 *
 * @throws {ForbiddenError} `venue_not_granted` for a venue not granted.
 */
export async function listPositions(
  deps: PositionReadDeps,
  key: ApiKeyRecord,
  venue?: VenueId,
): Promise<PositionList> {
  const accounts = await grantedAccounts(deps, key, venue)
  const now = deps.clock.now()
  const holdersOf = storeHolders(deps)
  return {
    accounts: await Promise.all(
      accounts.map(async (a) => ({
        venue: a.venue,
        accountIndex: a.accountIndex,
        readAt: a.snapshot?.readAt ?? null,
        ageMs: ageOf(a.snapshot?.readAt ?? null, now),
        positions: await Promise.all(
          (a.snapshot?.positions ?? []).map(async (p) =>
            positionView(
              p,
              await holdersOf({
                owner: key.owner,
                venue: a.venue,
                market: p.market,
              }),
            ),
          ),
        ),
      })),
    ),
  }
}

/** The positions read also names each position's holders in dn. */
export interface PositionReadDeps extends AccountReadDeps {
  readonly store: AccountReadDeps['store'] & Pick<Repos, 'tasks' | 'orders'>
}

/**
 * Each holder's part of the venue's net (`readLedger`), and the part no
 * holder took; a holder at zero is not listed.
 */
function holderViews(
  holders: readonly LedgerHolder[],
  net: string,
): PositionHolder[] {
  const reading = readLedger(holders, net)
  const views: PositionHolder[] = holders.flatMap((h) => {
    const size = dec(reading.attributed.get(h.id) ?? '0')
    if (size.isZero()) return []
    return [
      {
        kind:
          h.taskId === undefined
            ? 'direct_orders'
            : h.leftAtVenue
              ? 'left_at_venue'
              : 'task_leg',
        taskId: h.taskId ?? null,
        leg: h.leg ?? null,
        sizeBase: decString(size),
      },
    ]
  })
  const rest = dec(net).sub(views.reduce((s, v) => s.add(v.sizeBase), dec(0)))
  if (!rest.isZero()) {
    views.push({
      kind: 'unattributed',
      taskId: null,
      leg: null,
      sizeBase: decString(rest),
    })
  }
  return views
}

function positionView(
  p: SnapshotPosition,
  holders: readonly LedgerHolder[],
): Position {
  const size = dec(p.size)
  return {
    holders: holderViews(holders, p.size),
    market: p.market,
    side: size.isNegative() ? 'short' : 'long',
    sizeBase: decString(size.abs()),
    entryPrice: decString(p.entryPrice),
    markPrice: decString(p.markPrice),
    unrealizedPnlUsd: decString(size.mul(dec(p.markPrice).sub(p.entryPrice))),
    leverage: decString(p.leverage),
    marginMode: p.marginMode,
    liquidationPrice:
      p.liquidationPrice === null ? null : decString(p.liquidationPrice),
  }
}
