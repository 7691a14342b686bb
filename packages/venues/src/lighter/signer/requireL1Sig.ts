const L1_SIG = /^0x[0-9a-fA-F]{130}$/

/**
 * Checks the `L1Sig` of a tx: the owner's 65-byte EIP-191 signature as
 * `0x` hex (v = 27/28, as wallets return it), or '' when the tx needs none
 * or it is filled in later (lighter-go's signer leaves it '').
 *
 * @param l1Sig - the signature or ''.
 * @returns `l1Sig` unchanged.
 * @throws {RangeError} on anything else.
 * @example
 * requireL1Sig('') // ''
 */
export function requireL1Sig(l1Sig: string): string {
  if (l1Sig !== '' && !L1_SIG.test(l1Sig)) {
    throw new RangeError('L1Sig must be empty or 0x + 130 hex digits')
  }
  return l1Sig
}
