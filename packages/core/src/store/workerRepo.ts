import type { Insertable } from 'kysely'
import type { WorkerRecord } from '../domain/worker.js'
import type { WorkerRepo } from '../ports/store.js'
import type { WorkersTable } from './database.js'
import type { RepoScope } from './repoScope.js'
import {
  type FieldMap,
  fromRow,
  micros,
  nullable,
  storedMicros,
  text,
  toRow,
} from './rowMappers.js'

const workerFields: FieldMap<WorkerRecord, WorkersTable> = {
  id: text('id'),
  startedAt: micros('started_at'),
  heartbeatAt: micros('heartbeat_at'),
  fencedAt: nullable(micros('fenced_at')),
}

/**
 * Worker heartbeats. A heartbeat never clears `fencedAt`: a stored fence
 * stays unless the record carries a new one.
 */
export function workerRepo(scope: RepoScope): WorkerRepo {
  return {
    async heartbeat(worker) {
      const row = toRow(workerFields, worker, scope.dialect)
      await scope
        .db()
        .insertInto('workers')
        .values(row as Insertable<WorkersTable>)
        .onConflict((oc) =>
          oc.column('id').doUpdateSet((eb) => ({
            started_at: eb.ref('excluded.started_at'),
            heartbeat_at: eb.ref('excluded.heartbeat_at'),
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
