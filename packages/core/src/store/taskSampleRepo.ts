import type { TaskSampleRecord } from '../domain/taskSample.js'
import type { TaskSampleRepo } from '../ports/store.js'
import { decString } from '../util/decimal.js'
import { isoToMicros, microsToIso } from '../util/time.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/** Rows per insert: thirteen parameters each, well inside SQLite's limit. */
const CHUNK = 400

const nullableDec = (v: string | null) => (v === null ? null : decString(v))
const readDec = (raw: unknown) => decString(String(raw))
const readNullableDec = (raw: unknown) =>
  raw === null || raw === undefined ? null : decString(String(raw))

/** Task samples, one row per (task, slot). */
export function taskSampleRepo(scope: RepoScope): TaskSampleRepo {
  return {
    async add(samples, everyMs) {
      if (!(everyMs > 0)) throw new RangeError('everyMs must be positive')
      const rows = samples.map((s) => {
        const atMs = Date.parse(s.at)
        return {
          task_id: s.taskId,
          slot_at: (atMs - (atMs % everyMs)) * 1000,
          at: storedMicros(s.at),
          funding_usd: decString(s.fundingUsd),
          pnl_total_usd: decString(s.pnlTotalUsd),
          unrealized_usd: decString(s.unrealizedUsd),
          fees_usd: decString(s.feesUsd),
          funding_apy: nullableDec(s.fundingApy),
          long_price: nullableDec(s.longPrice),
          short_price: nullableDec(s.shortPrice),
          long_liq_pct: nullableDec(s.longLiqDistancePct),
          short_liq_pct: nullableDec(s.shortLiqDistancePct),
        }
      })
      let stored = 0
      for (let i = 0; i < rows.length; i += CHUNK) {
        const result = await scope
          .db()
          .insertInto('task_samples')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['task_id', 'slot_at']).doNothing())
          .executeTakeFirst()
        stored += Number(result.numInsertedOrUpdatedRows ?? 0n)
      }
      return stored
    },

    async list(taskId, { since, limit }) {
      let q = scope
        .db()
        .selectFrom('task_samples')
        .selectAll()
        .where('task_id', '=', taskId)
      if (since !== undefined) {
        q = q.where('at', '>=', Number(isoToMicros(since)))
      }
      const rows = await q.orderBy('at', 'desc').limit(limit).execute()
      return rows.reverse().map(
        (r): TaskSampleRecord => ({
          taskId: r.task_id,
          at: microsToIso(r.at),
          fundingUsd: readDec(r.funding_usd),
          pnlTotalUsd: readDec(r.pnl_total_usd),
          unrealizedUsd: readDec(r.unrealized_usd),
          feesUsd: readDec(r.fees_usd),
          fundingApy: readNullableDec(r.funding_apy),
          longPrice: readNullableDec(r.long_price),
          shortPrice: readNullableDec(r.short_price),
          longLiqDistancePct: readNullableDec(r.long_liq_pct),
          shortLiqDistancePct: readNullableDec(r.short_liq_pct),
        }),
      )
    },
  }
}
