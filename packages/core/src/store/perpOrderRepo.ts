import type {
  OrderResolution,
  PerpOrderRecord,
  PerpOrderStatus,
} from '../domain/perpOrder.js'
import type { VenueId } from '../domain/venue.js'
import type { PerpOrderRepo } from '../ports/store.js'
import type { PerpOrdersTable } from './database.js'
import { LEASE_FIELDS, leasedTable } from './leasedTable.js'
import type { RepoScope } from './repoScope.js'
import {
  bool,
  decimal,
  type FieldMap,
  int,
  json,
  micros,
  nullable,
  text,
} from './rowMappers.js'

const perpOrderFields: FieldMap<PerpOrderRecord, PerpOrdersTable> = {
  id: text('id'),
  owner: text('owner'),
  apiKeyId: text('api_key_id'),
  venue: text('venue'),
  market: text('market'),
  side: text('side'),
  orderType: text('order_type'),
  sizeBase: decimal('size_base'),
  requestedLimitPrice: nullable(decimal('requested_limit_price')),
  limitPrice: nullable(decimal('limit_price')),
  timeInForce: text('time_in_force'),
  slippageBps: int('slippage_bps'),
  reduceOnly: bool('reduce_only'),
  status: text('status'),
  requestedBase: nullable(decimal('requested_base')),
  filledBase: decimal('filled_base'),
  averagePrice: nullable(decimal('average_price')),
  clientOrderId: text('client_order_id'),
  venueOrderId: nullable(text('venue_order_id')),
  venueStatus: nullable(text('venue_status')),
  error: nullable(text('error')),
  cancelRequestedAt: nullable(micros('cancel_requested_at')),
  submittedAt: nullable(micros('submitted_at')),
  sendBy: nullable(micros('send_by')),
  observedAt: nullable(micros('observed_at')),
  expiresAt: micros('expires_at'),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
  resolution: nullable(json<OrderResolution, 'resolution'>('resolution')),
  ...LEASE_FIELDS,
}

/** States in which the owner's order still holds the venue account. */
const ACTIVE_ORDER_STATUSES: readonly PerpOrderStatus[] = [
  'pending',
  'submitting',
  'open',
  'partially_filled',
  'unknown',
]

/** States in which a limit order may be resting at the venue. */
const RESTING_STATUSES: readonly PerpOrderStatus[] = [
  'submitting',
  'open',
  'partially_filled',
  'unknown',
]

/** Direct perpetual orders. See {@link PerpOrderRepo}. */
export function perpOrderRepo(scope: RepoScope): PerpOrderRepo {
  const t = leasedTable<PerpOrderRecord, PerpOrderStatus, 'perp_orders'>(
    scope,
    {
      table: 'perp_orders',
      fields: perpOrderFields,
      immutable: ['id', 'owner', 'apiKeyId', 'createdAt'],
      venueColumns: ['venue'],
    },
  )
  return {
    ...t.shared,
    list: t.list,
    countActiveByOwner: (owner, exceptVenue) =>
      t.countByOwnerIn(owner, ACTIVE_ORDER_STATUSES, exceptVenue),
    async listRestingMarkets() {
      // perp_orders_status_idx narrows to the few active rows
      const rows = await scope
        .db()
        .selectFrom('perp_orders')
        .select(['owner', 'venue', 'market'])
        .distinct()
        .where('status', 'in', RESTING_STATUSES)
        .where('order_type', '=', 'limit')
        .where('time_in_force', 'in', ['gtc', 'post_only'])
        .execute()
      return rows.map((r) => ({
        owner: r.owner,
        venue: r.venue as VenueId,
        market: r.market,
      }))
    },
    async listOnMarket({ owner, venue, market }) {
      const rows = await scope
        .db()
        .selectFrom('perp_orders')
        .selectAll()
        .where('owner', '=', owner)
        .where('venue', '=', venue)
        .where('market', '=', market)
        .where((eb) =>
          eb.or([
            eb('status', 'in', ACTIVE_ORDER_STATUSES),
            eb('filled_base', '<>', '0'),
          ]),
        )
        .execute()
      return rows.map(t.read)
    },
  }
}
