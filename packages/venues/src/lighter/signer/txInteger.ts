/**
 * Checks an integer field of a Lighter transaction against its range.
 * Lighter's Go types are int64/uint32/uint8; every value the service sends
 * (indexes below 2^48, ms timestamps, fee caps) fits a safe JS integer, so
 * fields are `number`s and anything unsafe is refused rather than rounded.
 *
 * @param name - field name for the error message.
 * @param value - the value to check.
 * @param min - smallest allowed value.
 * @param max - largest allowed value.
 * @returns `value` unchanged.
 * @throws {RangeError} unless `value` is a safe integer in `min..max`.
 * @example
 * txInteger('apiKeyIndex', 5, 0, 254) // 5
 */
export function txInteger(
  name: string,
  value: number,
  min: number,
  max: number,
): number {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer ${min}..${max}: ${value}`)
  }
  return value
}
