import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { oneOf, type Query } from './lighterFakeQuery.js'
import type {
  LighterFakeState,
  LighterFakeTxRecord,
} from './lighterFakeState.js'
import type { TxEnvelope } from './lighterFakeTx.js'

/** How many accepted txs the fake remembers for the `tx` read. */
const LIGHTER_FAKE_TX_LOG = 10_000

/**
 * Tx status of an executed tx [unverified: the numbering of `EnrichedTx.
 * status` is not in the spec; every tx the fake accepts has executed].
 */
const EXECUTED = 2

/** Remembers an accepted tx (the oldest is forgotten past the cap). */
export function recordLighterTx(
  state: LighterFakeState,
  env: TxEnvelope,
  hash: string,
  info: string,
  orderIndex: number | null,
): void {
  state.txCount += 1
  state.txs.set(hash, {
    hash,
    type: env.type,
    info,
    accountIndex: env.accountIndex,
    apiKeyIndex: env.apiKeyIndex,
    nonce: env.nonce,
    expiredAt: env.expiredAt,
    time: state.now(),
    orderIndex,
    sequence: state.txCount,
  })
  if (state.txs.size > LIGHTER_FAKE_TX_LOG) {
    const oldest = state.txs.keys().next().value
    if (oldest !== undefined) state.txs.delete(oldest)
  }
}

/**
 * `tx?by=hash|sequence_index&value=…`: one accepted tx as `EnrichedTx`.
 * Block data (height, commit and verify times) is 0: the fake has no
 * chain. Unknown: 21500 `transaction not found` (lighter.md §9).
 */
export function lighterFakeTx(
  state: LighterFakeState,
  q: Query,
): Record<string, unknown> {
  const by = oneOf(q, 'by', ['hash', 'sequence_index'] as const)
  const value = q.get('value') ?? ''
  let tx: LighterFakeTxRecord | undefined
  if (by === 'hash') tx = state.txs.get(value.replace(/^0x/, '').toLowerCase())
  else {
    const n = Number(value)
    tx = [...state.txs.values()].find((r) => r.sequence === n)
  }
  if (!tx) throw new LighterFakeError(FAKE_CODES.txNotFound, 'tx not found')
  const owner = state.exchange.ownerOf(tx.accountIndex) ?? ''
  return {
    code: 200,
    hash: tx.hash,
    type: tx.type,
    info: tx.info,
    event_info: '',
    status: EXECUTED,
    transaction_index: 0,
    l1_address: owner,
    account_index: tx.accountIndex,
    nonce: tx.nonce,
    expire_at: tx.expiredAt,
    block_height: 0,
    queued_at: tx.time,
    executed_at: tx.time,
    sequence_index: tx.sequence,
    parent_hash: '',
    api_key_index: tx.apiKeyIndex,
    transaction_time: tx.time * 1000,
    committed_at: 0,
    verified_at: 0,
  }
}
