import type { SnapshotPosition } from '../domain/accountSnapshot.js'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import type { VenueId } from '../domain/venue.js'
import type { Position, PositionList } from '../schemas/accountReads.js'
import { dec, decString } from '../util/decimal.js'
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
  deps: AccountReadDeps,
  key: ApiKeyRecord,
  venue?: VenueId,
): Promise<PositionList> {
  const accounts = await grantedAccounts(deps, key, venue)
  const now = deps.clock.now()
  return {
    accounts: accounts.map((a) => ({
      venue: a.venue,
      accountIndex: a.accountIndex,
      readAt: a.snapshot?.readAt ?? null,
      ageMs: ageOf(a.snapshot?.readAt ?? null, now),
      positions: (a.snapshot?.positions ?? []).map(positionView),
    })),
  }
}

function positionView(p: SnapshotPosition): Position {
  const size = dec(p.size)
  return {
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
