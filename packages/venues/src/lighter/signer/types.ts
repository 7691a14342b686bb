/**
 * Shared shapes of the Lighter L2 transaction builders.
 *
 * @module
 */

/** Fields every signed Lighter L2 transaction carries. */
export interface LighterTxHeader {
  /** Lighter signing chain id: 304 mainnet, 466324 `lighter`, 300 testnet. */
  readonly chainId: number
  /** Next nonce of this (account, API key), from `nextNonce`. */
  readonly nonce: number
  /** Expiry of the tx in ms since the epoch (lighter-go: now + 10 min - 1 s). */
  readonly expiredAt: number
  readonly accountIndex: number
  /** API key slot 0..254 that signs. */
  readonly apiKeyIndex: number
}

/** What `sendTx` needs, in the shape lighter-go's signer returns it. */
export interface LighterSignedTx {
  /** `tx_type` form field. */
  readonly txType: number
  /** `tx_info` form field: Go `json.Marshal` of the tx (PascalCase). */
  readonly txInfo: string
  /** The signed hash, 80 lowercase hex digits (Lighter's `tx_hash`). */
  readonly txHash: string
  /** The L1 (EIP-191) message the owner's wallet signs for `L1Sig`. */
  readonly messageToSign: string
}
