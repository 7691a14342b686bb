import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from './database.js'
import type { DialectSpec } from './dialectSpec.js'
import { type ColumnKind, columnSqlType } from './rowMappers.js'

/** Rows per statement: a few hundred bound values, well inside both limits. */
const ROWS_PER_STATEMENT = 100

/** One row's new column values, written only at the fence it was read with. */
interface FencedRowWrite {
  readonly id: string
  readonly fence: number
  /** column → value as bound (already written by its field) */
  readonly set: Readonly<Record<string, unknown>>
}

export interface FencedRowsUpdate {
  readonly table: 'tasks'
  /** the kind of every column a row may set */
  readonly kinds: Readonly<Record<string, ColumnKind>>
  /** extra conditions every row must meet, e.g. `status = 'running'` */
  readonly where: RawBuilder<unknown>
}

/**
 * Writes many rows, each only where its fence still holds, bumping the
 * fence: one `UPDATE … FROM (VALUES …)` per hundred rows that set the same
 * columns, instead of a statement per row (the monitor sweep writes a
 * thousand rows a second; per-row statements spent most of their time
 * outside the database). Returns the ids written, in the order given.
 */
export async function updateFencedRows(
  db: Kysely<Database>,
  dialect: DialectSpec,
  spec: FencedRowsUpdate,
  writes: readonly FencedRowWrite[],
): Promise<string[]> {
  const groups = new Map<string, FencedRowWrite[]>()
  for (const w of writes) {
    const key = Object.keys(w.set).sort().join(',')
    const group = groups.get(key)
    if (group) group.push(w)
    else groups.set(key, [w])
  }
  const written = new Set<string>()
  for (const [key, group] of groups) {
    const columns = key === '' ? [] : key.split(',')
    for (let i = 0; i < group.length; i += ROWS_PER_STATEMENT) {
      const chunk = group.slice(i, i + ROWS_PER_STATEMENT)
      const rows = await statement(dialect, spec, columns, chunk).execute(db)
      for (const r of rows.rows) written.add(r.id)
    }
  }
  return writes.filter((w) => written.has(w.id)).map((w) => w.id)
}

/**
 * `WITH v(v_id, v_fence, v_<col>…) AS (VALUES …) UPDATE t SET col = v.v_col
 * … FROM v WHERE t.id = v.v_id AND t.fence = v.v_fence AND <where>
 * RETURNING id`. The CTE's columns are prefixed so `id` stays unambiguous
 * (SQLite's RETURNING may not name FROM tables). PostgreSQL types bound
 * values in VALUES as text: each is cast to its column's type.
 */
function statement(
  dialect: DialectSpec,
  spec: FencedRowsUpdate,
  columns: readonly string[],
  rows: readonly FencedRowWrite[],
): RawBuilder<{ id: string }> {
  const cast = dialect.name === 'postgres'
  const bind = (value: unknown, kind: ColumnKind) =>
    cast
      ? sql`cast(${value} as ${sql.raw(columnSqlType(kind, dialect))})`
      : sql`${value}`
  const kindOf = (c: string): ColumnKind => {
    const kind = spec.kinds[c]
    if (kind === undefined) throw new Error(`no column ${c} in ${spec.table}`)
    return kind
  }
  const names = [
    sql.ref('v_id'),
    sql.ref('v_fence'),
    ...columns.map((c) => sql.ref(`v_${c}`)),
  ]
  const values = rows.map(
    (r) =>
      sql`(${sql.join([
        bind(r.id, 'text'),
        bind(r.fence, 'int'),
        ...columns.map((c) => bind(r.set[c], kindOf(c))),
      ])})`,
  )
  const table = sql.table(spec.table)
  const sets = [
    ...columns.map((c) => sql`${sql.ref(c)} = ${sql.ref(`v.v_${c}`)}`),
    sql`fence = ${table}.fence + 1`,
  ]
  return sql<{
    id: string
  }>`with v (${sql.join(names)}) as (values ${sql.join(values)})
update ${table} set ${sql.join(sets)}
from v
where ${table}.id = v.v_id and ${table}.fence = v.v_fence and ${spec.where}
returning id`
}
