import { l1MessageHex } from './l1MessageHex.js'
import { parseLighterPrivateKey } from './lighterKeys.js'
import { quinticExtension } from './quinticExtension.js'
import { requireL1Sig } from './requireL1Sig.js'
import { schnorr } from './schnorr.js'
import {
  type LighterTxAttributes,
  txAttributes,
  txAttributesJson,
} from './txAttributes.js'
import { txHash } from './txHash.js'
import { txInteger } from './txInteger.js'
import type { LighterSignedTx, LighterTxHeader } from './types.js'

/**
 * ApproveIntegrator (tx type 45) lets an integrator account attach fees up
 * to the given caps to this account's orders until `approvalExpiry`. It is
 * signed by an API key; an L1 signature is needed only when a cap is
 * non-zero (lighter-python `examples/integrator/approve_zero_fees.py`).
 *
 * @module
 */

/** lighter-go `TxTypeL2ApproveIntegrator`. */
export const APPROVE_INTEGRATOR_TX_TYPE = 45

/** lighter-go `FeeTick`: a fee of 1 000 000 is 100%. */
const FEE_TICK = 1_000_000
const MAX_ACCOUNT_INDEX = 2 ** 48 - 2
const MAX_TIMESTAMP = 2 ** 48 - 1

interface ApproveIntegratorFields {
  readonly integratorAccountIndex: number
  readonly maxPerpsTakerFee: number
  readonly maxPerpsMakerFee: number
  readonly maxSpotTakerFee: number
  readonly maxSpotMakerFee: number
  /** ms since the epoch; 0 revokes (then every cap must be 0). */
  readonly approvalExpiry: number
}

export interface ApproveIntegratorParameters
  extends LighterTxHeader,
    ApproveIntegratorFields {
  /** Private key of the API key in slot `apiKeyIndex`. */
  readonly privateKey: string
  /** Owner's personal_sign of the L1 message; '' when all caps are 0. */
  readonly l1Sig?: string
  readonly attributes?: LighterTxAttributes
}

type ApproveIntegratorL1MessageParameters = ApproveIntegratorFields &
  Omit<LighterTxHeader, 'expiredAt'>

/** Range checks of lighter-go `L2ApproveIntegratorTxInfo.Validate`. */
function checkFields(p: ApproveIntegratorFields): number[] {
  const caps = [
    txInteger('maxPerpsTakerFee', p.maxPerpsTakerFee, 0, FEE_TICK),
    txInteger('maxPerpsMakerFee', p.maxPerpsMakerFee, 0, FEE_TICK),
    txInteger('maxSpotTakerFee', p.maxSpotTakerFee, 0, FEE_TICK),
    txInteger('maxSpotMakerFee', p.maxSpotMakerFee, 0, FEE_TICK),
  ]
  const expiry = txInteger('approvalExpiry', p.approvalExpiry, 0, MAX_TIMESTAMP)
  if (expiry === 0 && caps.some((c) => c !== 0)) {
    throw new RangeError('a revocation (approvalExpiry 0) needs all caps 0')
  }
  const integrator = txInteger(
    'integratorAccountIndex',
    p.integratorAccountIndex,
    0,
    MAX_ACCOUNT_INDEX,
  )
  return [integrator, ...caps, expiry]
}

/**
 * The L1 message the owner personal-signs when a cap is non-zero
 * (lighter-go `TemplateL2ApproveIntegrator`); unlike ChangePubKey's it
 * includes the chain id.
 *
 * @throws {RangeError} on an out-of-range field.
 * @example
 * approveIntegratorL1Message({ chainId: 304, nonce: 7, accountIndex: 1,
 *   apiKeyIndex: 5, integratorAccountIndex: 994, maxPerpsTakerFee: 0,
 *   maxPerpsMakerFee: 0, maxSpotTakerFee: 0, maxSpotMakerFee: 0,
 *   approvalExpiry: 1800000000000 })
 */
export function approveIntegratorL1Message(
  params: ApproveIntegratorL1MessageParameters,
): string {
  const [integrator = 0, pt = 0, pm = 0, st = 0, sm = 0, expiry = 0] =
    checkFields(params)
  const h = l1MessageHex
  return [
    'Approve Integrator',
    '',
    `nonce: ${h(params.nonce)}`,
    `account index: ${h(params.accountIndex)}`,
    `api key index: ${h(params.apiKeyIndex)}`,
    `integrator account index: ${h(integrator)}`,
    `max perps taker fee: ${h(pt)}`,
    `max perps maker fee: ${h(pm)}`,
    `max spot taker fee: ${h(st)}`,
    `max spot maker fee: ${h(sm)}`,
    `approval expiry: ${h(expiry)}`,
    `chainId: ${h(params.chainId)}`,
    'Only sign this message for a trusted client!',
  ].join('\n')
}

/**
 * Builds and signs an ApproveIntegrator tx with an API key.
 *
 * @param params - header, integrator and caps, the signing key, optional
 *   `l1Sig` (required by Lighter only for non-zero caps) and attributes.
 * @returns `{ txType: 45, txInfo, txHash, messageToSign }`.
 * @throws {RangeError} on a malformed key or signature, an out-of-range
 *   field, or non-zero caps with a revocation.
 * @example
 * approveIntegrator({ ...header, privateKey, integratorAccountIndex: 994,
 *   maxPerpsTakerFee: 0, maxPerpsMakerFee: 0, maxSpotTakerFee: 0,
 *   maxSpotMakerFee: 0, approvalExpiry: Date.now() + 86_400_000 })
 */
export function approveIntegrator(
  params: ApproveIntegratorParameters,
): LighterSignedTx {
  const sk = parseLighterPrivateKey(params.privateKey)
  const l1Sig = requireL1Sig(params.l1Sig ?? '')
  const attributes = txAttributes(params.attributes)
  const hash = txHash({
    txType: APPROVE_INTEGRATOR_TX_TYPE,
    header: params,
    fields: checkFields(params),
    attributes,
  })
  const sig = schnorr.toBytes(schnorr.sign(hash, sk))
  const txInfo = {
    AccountIndex: params.accountIndex,
    ApiKeyIndex: params.apiKeyIndex,
    IntegratorAccountIndex: params.integratorAccountIndex,
    MaxPerpsTakerFee: params.maxPerpsTakerFee,
    MaxPerpsMakerFee: params.maxPerpsMakerFee,
    MaxSpotTakerFee: params.maxSpotTakerFee,
    MaxSpotMakerFee: params.maxSpotMakerFee,
    ApprovalExpiry: params.approvalExpiry,
    ExpiredAt: params.expiredAt,
    Nonce: params.nonce,
    Sig: Buffer.from(sig).toString('base64'),
    L1Sig: l1Sig,
    L2TxAttributes: txAttributesJson(attributes),
  }
  return {
    txType: APPROVE_INTEGRATOR_TX_TYPE,
    txInfo: JSON.stringify(txInfo),
    txHash: quinticExtension.toHex(hash),
    messageToSign: approveIntegratorL1Message(params),
  }
}
