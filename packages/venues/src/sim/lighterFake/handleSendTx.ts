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

/**
 * Answers `POST /api/v1/sendTx`: ChangePubKey (8) is authorised by its
 * own key and the owner's L1 signature; every other tx by the registered
 * key of its (account, API key) slot.
 *
 * @throws {LighterFakeError} refusals, answered as HTTP 400.
 */
export async function handleSendTx(
  state: LighterFakeState,
  form: URLSearchParams,
): Promise<Record<string, unknown>> {
  const env = parseEnvelope(form)
  let hash: string
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
  return {
    code: 200,
    tx_hash: hash,
    predicted_execution_time_ms: state.now(),
    volume_quota_remaining: 1000,
  }
}
