import type { Insertable, Updateable } from 'kysely'
import type {
  OrderResolution,
  PerpOrderRecord,
  PerpOrderStatus,
} from '../domain/perpOrder.js'
import type { PerpOrderRepo } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import { claimRows } from './claimRows.js'
import type { PerpOrdersTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  bool,
  decimal,
  type FieldMap,
  fromRow,
  int,
  json,
  micros,
  nullable,
  text,
  toRow,
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
  observedAt: nullable(micros('observed_at')),
  expiresAt: micros('expires_at'),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
  resolution: nullable(json<OrderResolution, 'resolution'>('resolution')),
  leaseOwner: nullable(text('lease_owner')),
  leaseExpiresAt: nullable(micros('lease_expires_at')),
  fence: int('fence'),
  nextCheckAt: nullable(micros('next_check_at')),
}

/** States in which the owner's order still holds the venue account. */
export const ACTIVE_ORDER_STATUSES: readonly PerpOrderStatus[] = [
  'pending',
  'submitting',
  'open',
  'partially_filled',
  'unknown',
]

/** Direct perpetual orders. See {@link PerpOrderRepo}. */
export function perpOrderRepo(scope: RepoScope): PerpOrderRepo {
  const read = (row: object) => fromRow(perpOrderFields, row)
  return {
    async insert(order) {
      const row = toRow(perpOrderFields, order, scope.dialect)
      await scope
        .db()
        .insertInto('perp_orders')
        .values(row as Insertable<PerpOrdersTable>)
        .execute()
    },
    async get(id) {
      const row = await scope
        .db()
        .selectFrom('perp_orders')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async update(id, patch, guard) {
      if (guard?.status?.length === 0) return undefined
      const set = toRow(perpOrderFields, patch, scope.dialect, [
        'id',
        'owner',
        'apiKeyId',
        'createdAt',
      ])
      let query = scope
        .db()
        .updateTable('perp_orders')
        .set(set as Updateable<PerpOrdersTable>)
        .where('id', '=', id)
      if (guard?.status !== undefined) {
        query = query.where('status', 'in', guard.status)
      }
      if (guard?.fence !== undefined) {
        query = query.where('fence', '=', guard.fence)
      }
      const row = await query.returningAll().executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async list(filter) {
      if (filter.venues.length === 0 || filter.limit <= 0) return []
      let query = scope
        .db()
        .selectFrom('perp_orders')
        .selectAll()
        .where('owner', '=', filter.owner)
        .where('venue', 'in', filter.venues)
      if (filter.status !== undefined) {
        query = query.where('status', '=', filter.status)
      }
      if (filter.updatedSince !== undefined) {
        const since = Number(isoToMicros(filter.updatedSince))
        query = query.where('updated_at', '>=', since)
      }
      const { after } = filter
      if (after !== undefined) {
        const at = Number(isoToMicros(after.updatedAt))
        query = query.where((eb) =>
          eb.or([
            eb('updated_at', '<', at),
            eb.and([eb('updated_at', '=', at), eb('id', '<', after.id)]),
          ]),
        )
      }
      const rows = await query
        .orderBy('updated_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit)
        .execute()
      return rows.map(read)
    },
    async claim(request) {
      const rows = await claimRows(scope, 'perp_orders', request)
      return rows.map(read)
    },
    async countActiveByOwner(owner) {
      const row = await scope
        .db()
        .selectFrom('perp_orders')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('owner', '=', owner)
        .where('status', 'in', ACTIVE_ORDER_STATUSES)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
  }
}
