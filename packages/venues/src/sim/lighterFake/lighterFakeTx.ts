import type { Fp5 } from '../../lighter/signer/quinticExtension.js'
import { quinticExtension } from '../../lighter/signer/quinticExtension.js'
import { schnorr } from '../../lighter/signer/schnorr.js'
import { txHash } from '../../lighter/signer/txHash.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { keyId, type LighterFakeState } from './lighterFakeState.js'

/**
 * Reading and checking one posted tx the way the venue does: every field
 * an integer, the Schnorr signature valid for the hash this deployment's
 * chain id gives (a tx signed for another chain fails here), not expired,
 * and its nonce the key's next one.
 *
 * @module
 */

export type TxInfo = Record<string, unknown>

/** The tx header and the checks shared by every type. */
export interface TxEnvelope {
  readonly type: number
  readonly info: TxInfo
  readonly accountIndex: number
  readonly apiKeyIndex: number
  readonly nonce: number
  readonly expiredAt: number
}

const bad = (what: string) =>
  new LighterFakeError(FAKE_CODES.invalidTxInfo, `invalid tx info: ${what}`)

/** An integer field of the tx. */
export function num(info: TxInfo, field: string): number {
  const v = info[field]
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw bad(field)
  return v
}

/** Parses one tx: its `tx_type` and `tx_info` fields as posted. */
export function parseEnvelope(
  txType: string | null,
  txInfo: string | null,
): TxEnvelope {
  const type = txType !== null && /^\d+$/.test(txType) ? Number(txType) : NaN
  let info: unknown
  try {
    info = JSON.parse(txInfo ?? '')
  } catch {
    throw bad('not JSON')
  }
  if (!Number.isSafeInteger(type) || !info || typeof info !== 'object') {
    throw bad('tx_type / tx_info')
  }
  const i = info as TxInfo
  return {
    type,
    info: i,
    accountIndex: num(i, 'AccountIndex'),
    apiKeyIndex: num(i, 'ApiKeyIndex'),
    nonce: num(i, 'Nonce'),
    expiredAt: num(i, 'ExpiredAt'),
  }
}

/** The tx's `L2TxAttributes` by type; null when none. */
export function attributesOf(info: TxInfo): Map<number, number> | null {
  const raw = info.L2TxAttributes
  if (raw === null || raw === undefined) return null
  if (typeof raw !== 'object' || Array.isArray(raw)) throw bad('L2TxAttributes')
  const map = new Map<number, number>()
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== 'number' || !/^[1-7]$/.test(k)) throw bad('L2TxAttributes')
    map.set(Number(k), v)
  }
  return map
}

/** The hash the tx's signature must cover, for this deployment's chain. */
function envelopeHash(
  state: LighterFakeState,
  env: TxEnvelope,
  fields: readonly (number | bigint)[],
): Fp5 {
  try {
    return txHash({
      txType: env.type,
      header: {
        chainId: state.chainId,
        nonce: env.nonce,
        expiredAt: env.expiredAt,
        accountIndex: env.accountIndex,
        apiKeyIndex: env.apiKeyIndex,
      },
      fields,
      attributes: attributesOf(env.info),
    })
  } catch (e) {
    if (e instanceof LighterFakeError) throw e
    throw bad(String((e as Error).message))
  }
}

/** Checks the L2 signature against `publicKeyHex`; returns the tx hash. */
export function verifyL2(
  state: LighterFakeState,
  env: TxEnvelope,
  fields: readonly (number | bigint)[],
  publicKeyHex: string,
): string {
  const hash = envelopeHash(state, env, fields)
  const sig = typeof env.info.Sig === 'string' ? env.info.Sig : ''
  const bytes = Buffer.from(sig, 'base64')
  const ok =
    bytes.length === 80 &&
    schnorr.verify(
      quinticExtension.fromBytes(Buffer.from(publicKeyHex, 'hex')),
      hash,
      schnorr.fromBytes(bytes),
    )
  if (!ok)
    throw new LighterFakeError(FAKE_CODES.invalidSignature, 'invalid signature')
  return quinticExtension.toHex(hash)
}

/** Refuses an expired tx and a nonce that is not the key's next one. */
export function checkFreshness(state: LighterFakeState, env: TxEnvelope) {
  if (env.expiredAt <= state.now()) {
    throw bad(`tx expired at ${env.expiredAt}`)
  }
  const next = state.nonces.get(keyId(env.accountIndex, env.apiKeyIndex)) ?? 0
  if (env.nonce !== next) {
    throw new LighterFakeError(
      FAKE_CODES.invalidNonce,
      `invalid nonce: expected ${next}, got ${env.nonce}`,
    )
  }
}

/** Consumes the nonce: the tx is accepted from here on. */
export function consumeNonce(state: LighterFakeState, env: TxEnvelope) {
  const id = keyId(env.accountIndex, env.apiKeyIndex)
  state.nonces.set(id, env.nonce + 1)
}
