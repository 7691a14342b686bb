/**
 * Timestamps are stored as integer microseconds since the epoch so both
 * dialects compare them exactly, and a client's `updatedSince` with six
 * fractional digits is honoured without float rounding.
 */
export function isoToMicros(iso: string): bigint {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso)
  if (!m?.[1]) throw new RangeError(`not a UTC timestamp: ${iso}`)
  const seconds = Date.parse(`${m[1]}Z`)
  if (Number.isNaN(seconds)) throw new RangeError(`not a UTC timestamp: ${iso}`)
  const frac = (m[2] ?? '').padEnd(6, '0')
  return BigInt(seconds) * 1000n + BigInt(frac)
}

/** ISO 8601 with millisecond precision, the form every response uses. */
export function microsToIso(us: bigint | number | string): string {
  const ms = Number(BigInt(us) / 1000n)
  return new Date(ms).toISOString()
}

export function msToIso(ms: number): string {
  return new Date(ms).toISOString()
}

export const HOUR_MS = 3_600_000

/** The whole UTC hour `t` (Unix ms) falls in. */
export function hourStart(t: number): number {
  return Math.floor(t / HOUR_MS) * HOUR_MS
}

/** The first whole UTC hour after `t` (Unix ms): hourly funding settles then. */
export function nextHourAfter(t: number): number {
  return Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS
}
