/** A duration flag that is not `<n>ms|s|m|h`, or out of its range. */
class DurationFlagError extends Error {
  readonly code = 'invalid_duration'
  override name = 'DurationFlagError'
}

const UNIT_MS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
}

/**
 * `60s`, `5m`, `1h` (or `1500ms`) in ms, within [min, max].
 * @throws DurationFlagError naming the flag
 */
export function durationFlag(
  flag: string,
  value: string,
  min: number,
  max: number,
): number {
  const m = /^(\d+)(ms|s|m|h)$/.exec(value.trim())
  const ms = m ? Number(m[1]) * (UNIT_MS[m[2] as string] as number) : Number.NaN
  if (!(ms >= min && ms <= max)) {
    throw new DurationFlagError(
      `${flag} must be a duration such as 60s, 5m or 1h, from ${min / 1000} s to ${max / 3_600_000} h, not ${JSON.stringify(value)}`,
    )
  }
  return ms
}
