import type { Insertable } from 'kysely'
import type { WorkerRecord } from '../domain/worker.js'
import type { WorkerRepo } from '../ports/store.js'
import type { WorkersTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  int,
  micros,
  nullable,
  storedMicros,
  text,
  toRow,
} from './rowMappers.js'

const workerFields: FieldMap<Required<WorkerRecord>, WorkersTable> = {
  id: text('id'),
  startedAt: micros('started_at'),
  heartbeatAt: micros('heartbeat_at'),
  fencedAt: nullable(micros('fenced_at')),
  host: nullable(text('host')),
  pid: nullable(int('pid')),
}

/**
 * Worker heartbeats. A heartbeat never clears `fencedAt`: a stored fence
 * stays unless the record carries a new one.
 */
export function workerRepo(scope: RepoScope): WorkerRepo {
  return {
    async heartbeat(worker) {
      const row = toRow(
        workerFields,
        { host: null, pid: null, ...worker },
        scope.dialect,
      )
      await scope
        .db()
        .insertInto('workers')
        .values(row as Insertable<WorkersTable>)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            started_at: eb.ref('excluded.started_at'),
            heartbeat_at: eb.ref('excluded.heartbeat_at'),
            host: eb.ref('excluded.host'),
            pid: eb.ref('excluded.pid'),
            ...(worker.fencedAt === null
              ? {}
              : { fenced_at: eb.ref('excluded.fenced_at') }),
          })),
        )
        .execute()
    },
    async get(id) {
      const row = await scope
        .db()
        .selectFrom('workers')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst()
      return row === undefined ? undefined : fromRow(workerFields, row)
    },
    async list() {
      const rows = await scope
        .db()
        .selectFrom('workers')
        .selectAll()
        .orderBy('started_at')
        .orderBy('id')
        .execute()
      return rows.map((row) => fromRow(workerFields, row))
    },
    async fence(id, at) {
      const result = await scope
        .db()
        .updateTable('workers')
        .set({ fenced_at: storedMicros(at) })
        .where('id', '=', id)
        .where('fenced_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async fenceAll(at) {
      const result = await scope
        .db()
        .updateTable('workers')
        .set({ fenced_at: storedMicros(at) })
        .where('fenced_at', 'is', null)
        .executeTakeFirst()
      return Number(result.numUpdatedRows)
    },
  }
}
