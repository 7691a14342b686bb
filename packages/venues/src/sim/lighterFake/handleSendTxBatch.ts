import { executeLighterTx, VOLUME_QUOTA } from './handleSendTx.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { keyId, type LighterFakeState } from './lighterFakeState.js'
import { parseEnvelope } from './lighterFakeTx.js'

/** The most txs one `sendTxBatch` takes (lighter.md §11: 50). */
const MAX_BATCH = 50

const badBatch = (what: string) =>
  new LighterFakeError(FAKE_CODES.invalidTxInfo, `invalid tx info: ${what}`)

function jsonArray(raw: string | null, name: string): unknown[] {
  try {
    const v: unknown = JSON.parse(raw ?? '')
    if (Array.isArray(v)) return v
  } catch {
    // answered below
  }
  throw badBatch(`${name} is not a JSON array`)
}

/**
 * Refuses (21105 `batch transaction nonce is not increasing`, the code
 * api-evangelist/lighter `conventions/lighter-conventions.yml` quotes
 * from the venue's docs) a batch in which one API key's nonces do not
 * grow, before any of it executes.
 */
function requireIncreasingNonces(txs: { type: string; info: string }[]) {
  const last = new Map<string, number>()
  for (const tx of txs) {
    const env = parseEnvelope(tx.type, tx.info)
    const key = keyId(env.accountIndex, env.apiKeyIndex)
    const before = last.get(key)
    if (before !== undefined && env.nonce <= before) {
      throw new LighterFakeError(
        FAKE_CODES.batchNonceNotIncreasing,
        'batch transaction nonce is not increasing',
      )
    }
    last.set(key, env.nonce)
  }
}

/**
 * Answers `POST /api/v1/sendTxBatch` (`RespSendTxBatch`): `tx_types` a
 * JSON array of tx types, `tx_infos` a JSON array of the `tx_info`
 * strings (lighter-python `send_tx_batch(tx_types=json.dumps(types),
 * tx_infos=json.dumps(infos))`), at most 50, one key's nonces growing,
 * executed in order. [unverified] that the venue stops at the first
 * refused tx and keeps the ones before it executed, as the fake does: the
 * refusal is the answer.
 */
export async function handleSendTxBatch(
  state: LighterFakeState,
  form: URLSearchParams,
): Promise<Record<string, unknown>> {
  const types = jsonArray(form.get('tx_types'), 'tx_types')
  const infos = jsonArray(form.get('tx_infos'), 'tx_infos')
  if (types.length !== infos.length || types.length === 0) {
    throw badBatch('tx_types and tx_infos differ in length or are empty')
  }
  if (types.length > MAX_BATCH) throw badBatch(`more than ${MAX_BATCH} txs`)
  const txs = types.map((type, i) => {
    const info = infos[i]
    return {
      type: String(type),
      info: typeof info === 'string' ? info : JSON.stringify(info),
    }
  })
  requireIncreasingNonces(txs)
  const hashes: string[] = []
  for (const tx of txs) {
    hashes.push(await executeLighterTx(state, tx.type, tx.info))
  }
  return {
    code: 200,
    tx_hash: hashes,
    predicted_execution_time_ms: state.now(),
    volume_quota_remaining: VOLUME_QUOTA,
  }
}
