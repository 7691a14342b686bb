import { createHash } from 'node:crypto'
import { ValidationError } from '../errors/domain.js'
import type { ListPosition } from '../ports/store.js'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface CursorFilter {
  readonly status?: string | undefined
  readonly updatedSince?: string | undefined
}

function filterTag(filter: CursorFilter): string {
  return createHash('sha256')
    .update(`${filter.status ?? ''}\n${filter.updatedSince ?? ''}`)
    .digest('base64url')
    .slice(0, 16)
}

/** Opaque base64url cursor carrying the position and a tag of the filter. */
export function encodeCursor(pos: ListPosition, filter: CursorFilter): string {
  const raw = JSON.stringify([pos.updatedAt, pos.id, filterTag(filter)])
  return Buffer.from(raw).toString('base64url')
}

/**
 * Decodes a cursor and checks it was issued for the same filter; a cursor
 * reused with another `status` or `updatedSince` is a 400.
 */
export function decodeCursor(
  cursor: string,
  filter: CursorFilter,
): ListPosition {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    parsed = undefined
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    !parsed.every((p) => typeof p === 'string') ||
    !ISO_MS.test(String(parsed[0])) ||
    !UUID.test(String(parsed[1]))
  ) {
    throw new ValidationError('cursor is not valid', [], 'invalid_cursor')
  }
  const [updatedAt, id, tag] = parsed as [string, string, string]
  if (tag !== filterTag(filter)) {
    throw new ValidationError(
      'cursor was issued for another status/updatedSince filter; pass them unchanged',
      [],
      'cursor_filter_mismatch',
    )
  }
  return { updatedAt, id }
}
