/**
 * Lighter identifies an order by a client order index, an integer
 * 1..2^48-1, where the service uses a 128-bit `clientOrderId` (`0x` + 32
 * hex). The mapping is a pure function of the id so any process, after
 * any crash, derives the same index and finds the order again:
 * `(id mod (2^48 - 1)) + 1`. Two ids collide with probability ~2^-48 per
 * pair, and a collision only makes Lighter refuse the second order
 * (21728), never place it twice.
 *
 * @module
 */

const CLOID = /^0x[0-9a-fA-F]{32}$/
const MODULUS = 2n ** 48n - 1n

/**
 * The Lighter client order index of a service client order id.
 *
 * @param clientOrderId - `0x` + 32 hex digits.
 * @returns an integer in 1..2^48-1.
 * @throws {RangeError} on a malformed id.
 * @example
 * lighterClientOrderIndex(`0x${'00'.repeat(16)}`) // 1
 */
export function lighterClientOrderIndex(clientOrderId: string): number {
  if (!CLOID.test(clientOrderId)) {
    throw new RangeError(
      `a client order id is 0x + 32 hex digits: ${clientOrderId}`,
    )
  }
  return Number((BigInt(clientOrderId) % MODULUS) + 1n)
}
