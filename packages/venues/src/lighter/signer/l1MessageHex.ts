/**
 * A number as Lighter's L1 message templates print it: `0x` and at least
 * 16 lowercase hex digits, zero-padded (lighter-go `getHex10FromUint64`,
 * which pads to 16 despite its name).
 *
 * @param value - a non-negative safe integer.
 * @returns e.g. `0x0000000000000005`.
 * @throws {RangeError} on a negative or unsafe value.
 * @example
 * l1MessageHex(255) // '0x00000000000000ff'
 */
export function l1MessageHex(value: number): string {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`expected a non-negative integer: ${value}`)
  }
  return `0x${value.toString(16).padStart(16, '0')}`
}
