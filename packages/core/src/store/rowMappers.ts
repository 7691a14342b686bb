import { decString } from '../util/decimal.js'
import { isoToMicros, microsToIso } from '../util/time.js'
import type { DialectSpec } from './dialectSpec.js'

/** What a column holds; the dialect says its SQL type (`columnSqlType`). */
export type ColumnKind = 'text' | 'decimal' | 'micros' | 'int' | 'bool'

/** How one record field maps to one column, both ways. */
export interface Field<V, C extends string = string> {
  readonly column: C
  readonly kind: ColumnKind
  write(value: V, dialect: DialectSpec): unknown
  read(raw: unknown): V
}

/** A field for every key of record `R`, each naming a column of table `T`. */
export type FieldMap<R, T> = {
  readonly [K in keyof R]-?: Field<R[K], keyof T & string>
}

/** Plain text (ids, enums, addresses). */
export function text<V extends string, C extends string>(
  column: C,
): Field<V, C> {
  return {
    column,
    kind: 'text',
    write: (v) => v,
    read: (raw) => String(raw) as V,
  }
}

/** A decimal string, normalized on the way in and out. */
export function decimal<C extends string>(column: C): Field<string, C> {
  return {
    column,
    kind: 'decimal',
    write: (v) => decString(v),
    read: (raw) => decString(String(raw)),
  }
}

/**
 * Epoch microseconds to store for an ISO timestamp, cut to whole
 * milliseconds: reads give millisecond ISO strings (`microsToIso`), so a
 * stored value must equal what a reader sees, or a list position built from
 * a read row would not match its own row. Filters (`updatedSince`) are not
 * cut and keep all six fractional digits.
 */
export function storedMicros(iso: string): number {
  return Number(isoToMicros(iso) / 1000n) * 1000
}

/** An ISO timestamp stored as epoch microseconds (see {@link storedMicros}). */
export function micros<C extends string>(column: C): Field<string, C> {
  return {
    column,
    kind: 'micros',
    write: (v) => storedMicros(v),
    read: (raw) => microsToIso(raw as number | string | bigint),
  }
}

export function int<C extends string>(column: C): Field<number, C> {
  return { column, kind: 'int', write: (v) => v, read: (raw) => Number(raw) }
}

export function bool<C extends string>(column: C): Field<boolean, C> {
  return {
    column,
    kind: 'bool',
    write: (v, dialect) => dialect.bool(v),
    read: (raw) => raw === true || raw === 1 || raw === 1n,
  }
}

/** Any JSON value, stored as text. */
export function json<V, C extends string>(column: C): Field<V, C> {
  return {
    column,
    kind: 'text',
    write: (v) => JSON.stringify(v),
    read: (raw) => JSON.parse(String(raw)) as V,
  }
}

/** Makes a field nullable: null passes through both ways. */
export function nullable<V, C extends string>(
  field: Field<V, C>,
): Field<V | null, C> {
  return {
    column: field.column,
    kind: field.kind,
    write: (v, dialect) => (v === null ? null : field.write(v, dialect)),
    read: (raw) => (raw === null || raw === undefined ? null : field.read(raw)),
  }
}

/** The SQL type of a column of `kind` in `dialect`, as the migrations made it. */
export function columnSqlType(kind: ColumnKind, dialect: DialectSpec): string {
  switch (kind) {
    case 'text':
      return 'text'
    case 'int':
      return 'integer'
    default:
      return String(dialect.types[kind])
  }
}

/**
 * Row values for the fields present (and not undefined) in `record`,
 * skipping the `omit` keys.
 */
export function toRow<R, T>(
  fields: FieldMap<R, T>,
  record: Partial<R>,
  dialect: DialectSpec,
  omit: readonly (keyof R)[] = [],
): Record<string, unknown> {
  const row: Record<string, unknown> = {}
  for (const key of Object.keys(fields) as (keyof R)[]) {
    const value = record[key]
    if (value === undefined || omit.includes(key)) continue
    const field = fields[key]
    row[field.column] = field.write(value as R[keyof R], dialect)
  }
  return row
}

/** The record a selected row holds. */
export function fromRow<R, T>(fields: FieldMap<R, T>, row: object): R {
  const values = row as Readonly<Record<string, unknown>>
  const record: Partial<Record<keyof R, unknown>> = {}
  for (const key of Object.keys(fields) as (keyof R)[]) {
    const field = fields[key]
    record[key] = field.read(values[field.column])
  }
  return record as R
}
