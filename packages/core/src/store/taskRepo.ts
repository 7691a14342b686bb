import type { Insertable, Updateable } from 'kysely'
import type { ResizeRequest, TaskRecord, TaskStatus } from '../domain/task.js'
import type { TaskEngineState } from '../domain/taskEngineState.js'
import type { TaskRepo } from '../ports/store.js'
import { isoToMicros } from '../util/time.js'
import { claimRows } from './claimRows.js'
import type { TasksTable } from './database.js'
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

const taskFields: FieldMap<TaskRecord, TasksTable> = {
  id: text('id'),
  owner: text('owner'),
  apiKeyId: text('api_key_id'),
  longVenue: text('long_venue'),
  shortVenue: text('short_venue'),
  longMarket: text('long_market'),
  shortMarket: text('short_market'),
  sizeUsd: decimal('size_usd'),
  minFundingApy: decimal('min_funding_apy'),
  autoClose: bool('auto_close'),
  maxSpreadBps: nullable(decimal('max_spread_bps')),
  status: text('status'),
  longSize: nullable(decimal('long_size')),
  shortSize: nullable(decimal('short_size')),
  longEntry: nullable(decimal('long_entry')),
  shortEntry: nullable(decimal('short_entry')),
  longPrice: nullable(decimal('long_price')),
  shortPrice: nullable(decimal('short_price')),
  longLeverage: nullable(decimal('long_leverage')),
  shortLeverage: nullable(decimal('short_leverage')),
  liqProtectionPct: nullable(decimal('liq_protection_pct')),
  sizeMismatchPct: nullable(decimal('size_mismatch_pct')),
  fundingUsd: decimal('funding_usd'),
  longMarginMode: nullable(text('long_margin_mode')),
  shortMarginMode: nullable(text('short_margin_mode')),
  closeReason: nullable(text('close_reason')),
  error: nullable(text('error')),
  closeRequestedAt: nullable(micros('close_requested_at')),
  resizeRequest: nullable(
    json<ResizeRequest, 'resize_request'>('resize_request'),
  ),
  leaseOwner: nullable(text('lease_owner')),
  leaseExpiresAt: nullable(micros('lease_expires_at')),
  fence: int('fence'),
  nextCheckAt: nullable(micros('next_check_at')),
  engineState: nullable(json<TaskEngineState, 'engine_state'>('engine_state')),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
}

/** States in which the owner's task still holds the venue account. */
export const ACTIVE_TASK_STATUSES: readonly TaskStatus[] = [
  'pending',
  'running',
  'resizing',
  'closing',
]

/** Paired-position tasks. See {@link TaskRepo} for list and guard rules. */
export function taskRepo(scope: RepoScope): TaskRepo {
  const read = (row: object) => fromRow(taskFields, row)
  return {
    async insert(task) {
      const row = toRow(taskFields, task, scope.dialect)
      await scope
        .db()
        .insertInto('tasks')
        .values(row as Insertable<TasksTable>)
        .execute()
    },
    async get(id) {
      const row = await scope
        .db()
        .selectFrom('tasks')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : read(row)
    },
    async update(id, patch, guard) {
      if (guard?.status?.length === 0) return undefined
      const set = toRow(taskFields, patch, scope.dialect, [
        'id',
        'owner',
        'apiKeyId',
        'createdAt',
      ])
      let query = scope
        .db()
        .updateTable('tasks')
        .set(set as Updateable<TasksTable>)
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
        .selectFrom('tasks')
        .selectAll()
        .where('owner', '=', filter.owner)
        .where('long_venue', 'in', filter.venues)
        .where('short_venue', 'in', filter.venues)
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
      const rows = await claimRows(scope, 'tasks', request)
      return rows.map(read)
    },
    async countActiveByOwner(owner) {
      const row = await scope
        .db()
        .selectFrom('tasks')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('owner', '=', owner)
        .where('status', 'in', ACTIVE_TASK_STATUSES)
        .executeTakeFirstOrThrow()
      return Number(row.count)
    },
  }
}
