import { encode } from '@msgpack/msgpack'
import { type Hex, hexToBytes, isAddress, keccak256 } from 'viem'

/**
 * Hyperliquid's L1 `connectionId`: keccak256 of
 * `msgpack(action) ‖ uint64_be(nonce) ‖ (vault ? 0x01 ‖ vault : 0x00)
 * ‖ (expiresAfter ? 0x00 ‖ uint64_be(expiresAfter) : nothing)`, exactly as
 * `hyperliquid-python-sdk` `signing.action_hash`. The action's key order is
 * hashed (msgpack keeps insertion order), so build it with the canonical
 * order; keys whose value is `undefined` are dropped.
 * @param action the action object, keys in Hyperliquid's order
 * @param vaultAddress the vault or sub-account traded for, else `null`
 * @param nonce ms timestamp of the request
 * @param expiresAfter optional ms expiry of the action
 * @returns the 32-byte hash as hex
 * @throws RangeError on a bad nonce, expiry or vault address
 * @example actionHash({ type: 'scheduleCancel' }, null, Date.now())
 */
export function actionHash(
  action: object,
  vaultAddress: string | null,
  nonce: number,
  expiresAfter?: number,
): Hex {
  const packed = encode(action, { ignoreUndefined: true })
  const vault = vaultAddress === null ? null : addressBytes(vaultAddress)
  const size =
    packed.length + 8 + (vault ? 21 : 1) + (expiresAfter === undefined ? 0 : 9)
  const out = new Uint8Array(size)
  const view = new DataView(out.buffer)
  out.set(packed, 0)
  let at = packed.length
  view.setBigUint64(at, uint64('nonce', nonce))
  at += 8
  if (vault) {
    out[at] = 1
    out.set(vault, at + 1)
    at += 21
  } else {
    out[at] = 0
    at += 1
  }
  if (expiresAfter !== undefined) {
    out[at] = 0
    view.setBigUint64(at + 1, uint64('expiresAfter', expiresAfter))
  }
  return keccak256(out)
}

function uint64(name: string, value: number): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative safe integer`)
  }
  return BigInt(value)
}

function addressBytes(address: string): Uint8Array {
  if (!isAddress(address, { strict: false })) {
    throw new RangeError(`vaultAddress is not an address: ${address}`)
  }
  return hexToBytes(address as Hex)
}
