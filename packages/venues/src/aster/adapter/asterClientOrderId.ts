import { sha256, stringToHex } from 'viem'

/** Aster's rule for `newClientOrderId` (futures v3 doc "New Order"). */
const ASTER_CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/

/**
 * The `newClientOrderId` sent for one of our client order ids, always the
 * same for the same id so an uncertain order can be looked up again. Our
 * ids (`0x` + 32 hex, 34 characters) already match Aster's pattern and are
 * sent unchanged; anything else becomes `dn-` + the first 32 hex digits of
 * its SHA-256.
 * @example asterClientOrderId('0x00000000000000000000000000000001') // unchanged
 */
export function asterClientOrderId(clientOrderId: string): string {
  if (ASTER_CLIENT_ORDER_ID.test(clientOrderId)) return clientOrderId
  return `dn-${sha256(stringToHex(clientOrderId)).slice(2, 34)}`
}
