import type { SignRequest } from '@dn/core'
import { isAddress } from 'viem'

/** A sign request the wallet answers with `eth_signTypedData_v4`. */
export type TypedDataSignRequest = Extract<
  SignRequest,
  { method: 'eth_signTypedData_v4' }
>

/** A sign request the wallet answers with `personal_sign` (EIP-191). */
export type PersonalSignRequest = Extract<
  SignRequest,
  { method: 'personal_sign' }
>

/** The verifying contract of every venue domain here: the zero address. */
export const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000'

/** @throws RangeError unless `value` is a 0x-prefixed 20-byte hex address */
export function requireAddress(name: string, value: string): `0x${string}` {
  if (!isAddress(value, { strict: false })) {
    throw new RangeError(`${name} must be a 0x-prefixed address: ${value}`)
  }
  return value
}

/** @throws RangeError unless `value` is an integer in min..2^53-1 */
export function requireSafeInteger(
  name: string,
  value: number,
  min = 0,
): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new RangeError(
      `${name} must be an integer ${min}..${Number.MAX_SAFE_INTEGER}: ${value}`,
    )
  }
  return value
}
