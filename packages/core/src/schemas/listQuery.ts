import * as v from 'valibot'

const UPDATED_SINCE =
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{1,6}Z$/

/** True when the (pattern-checked) timestamp names a real UTC instant. */
function isRealUtcTimestamp(value: string): boolean {
  const year = Number(value.slice(0, 4))
  const month = Number(value.slice(5, 7))
  const day = Number(value.slice(8, 10))
  const hour = Number(value.slice(11, 13))
  const minute = Number(value.slice(14, 16))
  const second = Number(value.slice(17, 19))
  if (hour > 23 || minute > 59 || second > 59) return false
  const date = new Date(Date.UTC(year, month - 1, day))
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear undoes that.
  date.setUTCFullYear(year)
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  )
}

/**
 * A query's instant: a real UTC date-time with 1..6 fractional digits and
 * `Z` (what the store compares exactly, to the microsecond).
 */
export const UtcTimestampSchema = v.pipe(
  v.string(),
  v.regex(
    UPDATED_SINCE,
    'must be a UTC date-time with 1..6 fractional digits and Z',
  ),
  v.check(isRealUtcTimestamp, 'must be a real calendar date and time'),
)

/**
 * Query of the task and order list routes. The server turns `limit` into a
 * number only when it is all digits, so this schema sees a number or an
 * invalid string. No defaults are filled in (`limit` is 20 when absent).
 */
export const ListQuery = v.strictObject({
  limit: v.optional(
    v.pipe(
      v.number('must be an integer'),
      v.integer(),
      v.minValue(1),
      v.maxValue(20),
      v.metadata({ default: 20 }),
    ),
  ),
  status: v.optional(
    v.pipe(
      v.string(),
      v.regex(
        /^[a-z][a-z0-9_]{0,63}$/,
        'must be 1..64 of a-z, 0-9 and _, starting with a letter',
      ),
    ),
  ),
  updatedSince: v.optional(UtcTimestampSchema),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(1024),
      v.regex(/^[A-Za-z0-9_-]+$/, 'must be a non-empty base64url string'),
    ),
  ),
})
export type ListQuery = v.InferOutput<typeof ListQuery>
