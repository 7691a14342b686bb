import { recoverMessageAddress } from 'viem'
import { approveIntegratorL1Message } from '../../lighter/signer/approveIntegrator.js'
import { changePubKeyL1Message } from '../../lighter/signer/changePubKey.js'
import { quinticExtension } from '../../lighter/signer/quinticExtension.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import {
  accountIndexOf,
  keyId,
  type LighterFakeState,
} from './lighterFakeState.js'
import {
  checkFreshness,
  consumeNonce,
  num,
  type TxEnvelope,
  verifyL2,
} from './lighterFakeTx.js'

const L1_SIG = /^0x[0-9a-fA-F]{130}$/

/** Recovers the personal_sign signer of `message`, or null. */
async function l1Signer(message: string, sig: unknown): Promise<string | null> {
  if (typeof sig !== 'string' || !L1_SIG.test(sig)) return null
  try {
    return (
      await recoverMessageAddress({ message, signature: sig as `0x${string}` })
    ).toLowerCase()
  } catch {
    return null
  }
}

/**
 * ChangePubKey (8): the new key signs its own registration (L2) and the
 * account's L1 address personal-signs the exact `Register Lighter
 * Account` message (else 21504); then the key is stored in its slot.
 */
export async function changePubKeyTx(
  state: LighterFakeState,
  env: TxEnvelope,
): Promise<string> {
  const pk = Buffer.from(String(env.info.PubKey ?? ''), 'base64')
  if (pk.length !== 40 || env.apiKeyIndex > 254) {
    throw new LighterFakeError(
      FAKE_CODES.invalidTxInfo,
      'invalid tx info: PubKey',
    )
  }
  const pkHex = pk.toString('hex')
  const hash = verifyL2(state, env, quinticExtension.fromBytes(pk), pkHex)
  const message = changePubKeyL1Message({
    publicKey: pkHex,
    nonce: env.nonce,
    accountIndex: env.accountIndex,
    apiKeyIndex: env.apiKeyIndex,
  })
  const signer = await l1Signer(message, env.info.L1Sig)
  if (signer === null || accountIndexOf(state, signer) !== env.accountIndex) {
    throw new LighterFakeError(FAKE_CODES.l1Signature, 'fail to l1 signature')
  }
  checkFreshness(state, env)
  consumeNonce(state, env)
  state.keys.set(keyId(env.accountIndex, env.apiKeyIndex), pkHex)
  return hash
}

/**
 * ApproveIntegrator (45), signed by a registered key; an L1 signature of
 * the `Approve Integrator` message is required only for non-zero caps.
 * Expiry 0 revokes.
 */
export async function approveIntegratorTx(
  state: LighterFakeState,
  env: TxEnvelope,
  publicKeyHex: string,
): Promise<string> {
  const i = env.info
  const fields = [
    num(i, 'IntegratorAccountIndex'),
    num(i, 'MaxPerpsTakerFee'),
    num(i, 'MaxPerpsMakerFee'),
    num(i, 'MaxSpotTakerFee'),
    num(i, 'MaxSpotMakerFee'),
    num(i, 'ApprovalExpiry'),
  ] as const
  const hash = verifyL2(state, env, fields, publicKeyHex)
  const [integrator, pt, pm, st, sm, expiry] = fields
  if (pt || pm || st || sm) {
    const message = approveIntegratorL1Message({
      chainId: state.chainId,
      nonce: env.nonce,
      accountIndex: env.accountIndex,
      apiKeyIndex: env.apiKeyIndex,
      integratorAccountIndex: integrator,
      maxPerpsTakerFee: pt,
      maxPerpsMakerFee: pm,
      maxSpotTakerFee: st,
      maxSpotMakerFee: sm,
      approvalExpiry: expiry,
    })
    const signer = await l1Signer(message, i.L1Sig)
    if (
      signer === null ||
      signer !== state.exchange.ownerOf(env.accountIndex)
    ) {
      throw new LighterFakeError(FAKE_CODES.l1Signature, 'fail to l1 signature')
    }
  }
  checkFreshness(state, env)
  consumeNonce(state, env)
  const approvals = state.integrators.get(env.accountIndex) ?? new Map()
  if (expiry === 0) approvals.delete(integrator)
  else {
    approvals.set(integrator, {
      account_index: integrator,
      max_perps_taker_fee: pt,
      max_perps_maker_fee: pm,
      max_spot_taker_fee: st,
      max_spot_maker_fee: sm,
      approval_expiry: expiry,
    })
  }
  state.integrators.set(env.accountIndex, approvals)
  return hash
}
