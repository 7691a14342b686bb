import { approveIntegratorTx, changePubKeyTx } from './lighterFakeBinding.js'
import { cancelAllOrdersTx } from './lighterFakeCancelAll.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import {
  cancelOrderTx,
  createOrderTx,
  updateLeverageTx,
} from './lighterFakeOrders.js'
import { keyId, type LighterFakeState } from './lighterFakeState.js'
import { parseEnvelope } from './lighterFakeTx.js'
import { recordLighterTx } from './lighterFakeTxLog.js'

/**
 * `volume_quota_remaining` of every answer: the fake does not model the
 * premium tiers' volume quota (`RespSendTx` requires the field).
 */
export const VOLUME_QUOTA = 1000

/**
 * Executes one posted tx (`tx_type`, `tx_info` as sent): ChangePubKey (8)
 * is authorised by its own key and the owner's L1 signature; every other
 * tx by the registered key of its (account, API key) slot. An accepted
 * tx is remembered for the `tx` read.
 *
 * @returns the tx hash (80 hex)
 * @throws {LighterFakeError} refusals, answered as HTTP 400.
 */
export async function executeLighterTx(
  state: LighterFakeState,
  txType: string | null,
  txInfo: string | null,
): Promise<string> {
  const env = parseEnvelope(txType, txInfo)
  let hash: string
  const before = state.nextOrderIndex
  if (env.type === 8) {
    hash = await changePubKeyTx(state, env)
  } else {
    const pk = state.keys.get(keyId(env.accountIndex, env.apiKeyIndex))
    const owner = state.exchange.ownerOf(env.accountIndex)
    if (pk === undefined || owner === null) {
      throw new LighterFakeError(FAKE_CODES.apiKeyNotFound, 'api key not found')
    }
    if (env.type === 14) hash = createOrderTx(state, env, pk, owner)
    else if (env.type === 15) hash = cancelOrderTx(state, env, pk)
    else if (env.type === 16) hash = cancelAllOrdersTx(state, env, pk)
    else if (env.type === 20) hash = updateLeverageTx(state, env, pk, owner)
    else if (env.type === 45) hash = await approveIntegratorTx(state, env, pk)
    else {
      throw new LighterFakeError(
        FAKE_CODES.unsupportedTxType,
        'unsupported tx type',
      )
    }
  }
  const created = state.nextOrderIndex > before ? before : null
  recordLighterTx(state, env, hash, txInfo ?? '', created)
  return hash
}

/** Answers `POST /api/v1/sendTx` (`RespSendTx`). */
export async function handleSendTx(
  state: LighterFakeState,
  form: URLSearchParams,
): Promise<Record<string, unknown>> {
  const hash = await executeLighterTx(
    state,
    form.get('tx_type'),
    form.get('tx_info'),
  )
  return {
    code: 200,
    tx_hash: hash,
    predicted_execution_time_ms: state.now(),
    volume_quota_remaining: VOLUME_QUOTA,
  }
}
