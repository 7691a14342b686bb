import { sql } from 'kysely'
import {
  ACTIVE_TASK_STATUSES,
  type ResizeRequest,
  type TaskRecord,
  type TaskStatus,
} from '../domain/task.js'
import type { TaskEngineState } from '../domain/taskEngineState.js'
import type { TaskRepo } from '../ports/store.js'
import type { TasksTable } from './database.js'
import { type FencedRowsUpdate, updateFencedRows } from './fencedRowsUpdate.js'
import { LEASE_FIELDS, leasedTable } from './leasedTable.js'
import type { RepoScope } from './repoScope.js'
import {
  bool,
  decimal,
  type FieldMap,
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
  ...LEASE_FIELDS,
  engineState: nullable(json<TaskEngineState, 'engine_state'>('engine_state')),
  createdAt: micros('created_at'),
  updatedAt: micros('updated_at'),
}

const IMMUTABLE: (keyof TaskRecord)[] = ['id', 'owner', 'apiKeyId', 'createdAt']

/** Neither leg holds a booked size (`TaskUpdateGuard.unbooked`). */
const UNBOOKED = sql<boolean>`(long_size is null or long_size = ${'0'}) and (short_size is null or short_size = ${'0'})`

/** Rows the monitor sweep writes: running and held by no worker. */
const WATCHED_ROWS: FencedRowsUpdate = {
  table: 'tasks',
  kinds: Object.fromEntries(
    Object.values(taskFields).map((f) => [f.column, f.kind]),
  ),
  where: sql`tasks.status = ${'running'} and tasks.lease_owner is null`,
}

/** Paired-position tasks. See {@link TaskRepo} for list and guard rules. */
export function taskRepo(scope: RepoScope): TaskRepo {
  const t = leasedTable<TaskRecord, TaskStatus, 'tasks'>(scope, {
    table: 'tasks',
    fields: taskFields,
    immutable: IMMUTABLE,
    venueColumns: ['long_venue', 'short_venue'],
  })
  return {
    ...t.shared,
    update: (id, patch, guard) => {
      const also = [
        ...(guard?.idle
          ? [scope.dialect.jsonFieldAbsent('engine_state', 'op')]
          : []),
        ...(guard?.unbooked ? [UNBOOKED] : []),
      ]
      return t.shared.update(
        id,
        patch,
        guard,
        also.length === 0 ? undefined : sql.join(also, sql` and `),
      )
    },
    list: t.list,
    countActiveByOwner: (owner) =>
      t.countByOwnerIn(owner, ACTIVE_TASK_STATUSES),
    async listWatched({ afterId, limit }) {
      if (limit <= 0) return []
      let query = scope
        .db()
        .selectFrom('tasks')
        .selectAll()
        .where('status', '=', 'running')
        .where('lease_owner', 'is', null)
      if (afterId !== undefined) query = query.where('id', '>', afterId)
      const rows = await query.orderBy('id').limit(limit).execute()
      return rows.map(t.read)
    },
    async listOnMarket({ owner, venue, market }) {
      const rows = await scope
        .db()
        .selectFrom('tasks')
        .selectAll()
        .where('owner', '=', owner)
        // a task that ended still holds what its close left at the venue
        .where((eb) =>
          eb.or([
            eb('status', 'in', ACTIVE_TASK_STATUSES),
            eb.not(
              scope.dialect.jsonFieldAbsent('engine_state', 'leftAtVenue'),
            ),
          ]),
        )
        .where((eb) =>
          eb.or([
            eb.and([
              eb('long_venue', '=', venue),
              eb('long_market', '=', market),
            ]),
            eb.and([
              eb('short_venue', '=', venue),
              eb('short_market', '=', market),
            ]),
          ]),
        )
        .orderBy('id')
        .execute()
      return rows.map(t.read)
    },
    recordObservations(entries) {
      if (entries.length === 0) return Promise.resolve([])
      const writes = entries.map(({ id, fence, patch }) => ({
        id,
        fence,
        set: toRow(taskFields, patch, scope.dialect, IMMUTABLE),
      }))
      return scope.atomic((tx) =>
        updateFencedRows(tx, scope.dialect, WATCHED_ROWS, writes),
      )
    },
  }
}
