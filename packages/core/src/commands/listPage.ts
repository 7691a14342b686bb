import type { ListFilter, ListPosition } from '../ports/store.js'
import { decodeCursor, encodeCursor } from '../util/cursor.js'

export interface ListParameters {
  readonly limit?: number | undefined
  readonly status?: string | undefined
  readonly updatedSince?: string | undefined
  readonly cursor?: string | undefined
}

/**
 * One newest-first page. Reads limit + 1 rows to know whether a next page
 * exists, and binds the cursor to the filter it was issued for.
 */
export async function listPage<T extends { id: string; updatedAt: string }>(
  list: (filter: ListFilter) => Promise<T[]>,
  base: Pick<ListFilter, 'owner' | 'venues'>,
  params: ListParameters,
): Promise<{ items: T[]; nextCursor: string | null }> {
  const limit = params.limit ?? 20
  const filter = { status: params.status, updatedSince: params.updatedSince }
  const after: ListPosition | undefined =
    params.cursor === undefined
      ? undefined
      : decodeCursor(params.cursor, filter)
  const rows = await list({ ...base, ...filter, after, limit: limit + 1 })
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return {
    items,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ updatedAt: last.updatedAt, id: last.id }, filter)
        : null,
  }
}
