import { type Hex, pad, parseSignature, serializeSignature } from 'viem'
import type { HlSignature } from './signerAccount.js'

/**
 * Splits a 65-byte signature into Hyperliquid's `{r, s, v}` with r and s
 * left-padded to 32 bytes (python's `to_hex` drops leading zeros; the API
 * wants 66 characters).
 * @internal
 * @example splitSignature(await account.signTypedData(td))
 */
export function splitSignature(signature: Hex): HlSignature {
  const { r, s, yParity } = parseSignature(signature)
  return {
    r: pad(r, { size: 32 }).toLowerCase() as Hex,
    s: pad(s, { size: 32 }).toLowerCase() as Hex,
    v: yParity === 0 ? 27 : 28,
  }
}

/**
 * Joins Hyperliquid's `{r, s, v}` back into a 65-byte signature.
 * @internal
 * @example joinSignature({ r, s, v: 27 })
 */
export function joinSignature(signature: HlSignature): Hex {
  return serializeSignature({
    r: pad(signature.r, { size: 32 }),
    s: pad(signature.s, { size: 32 }),
    yParity: signature.v === 27 ? 0 : 1,
  })
}
