import { describe, expect, test } from 'vitest'
import {
  APPROVE_INTEGRATOR_TX_TYPE,
  approveIntegrator,
  approveIntegratorL1Message,
} from './approveIntegrator.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { lighterPublicKey, parseLighterPublicKey } from './lighterKeys.js'
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const v = data.self_computed_vectors
const a = v.approve_integrator
const params = {
  chainId: a.chain_id,
  nonce: a.nonce,
  expiredAt: a.expired_at,
  accountIndex: a.account_index,
  apiKeyIndex: a.api_key_index,
  integratorAccountIndex: a.integrator_account_index,
  maxPerpsTakerFee: a.max_perps_taker_fee,
  maxPerpsMakerFee: a.max_perps_maker_fee,
  maxSpotTakerFee: a.max_spot_taker_fee,
  maxSpotMakerFee: a.max_spot_maker_fee,
  approvalExpiry: a.approval_expiry,
  privateKey: `0x${v.sk_le_hex}`,
}

describe('approveIntegrator', () => {
  test('default: signed tx reproduces the hash vector and verifies', () => {
    const tx = approveIntegrator(params)
    expect(tx.txType).toBe(APPROVE_INTEGRATOR_TX_TYPE)
    expect(tx.txType).toBe(45)
    expect(tx.txHash).toBe(a.tx_hash)
    const info = JSON.parse(tx.txInfo)
    const pk = parseLighterPublicKey(lighterPublicKey(params.privateKey))
    const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
    const hash = f.fromBytes(Buffer.from(a.tx_hash, 'hex'))
    expect(schnorr.verify(pk, hash, sig)).toBe(true)
  })

  test('behavior: tx_info is Go json.Marshal of L2ApproveIntegratorTxInfo', () => {
    const tx = approveIntegrator(params)
    const sig = JSON.parse(tx.txInfo).Sig
    expect(tx.txInfo).toBe(
      '{"AccountIndex":1,"ApiKeyIndex":5,"IntegratorAccountIndex":994,' +
        '"MaxPerpsTakerFee":0,"MaxPerpsMakerFee":0,"MaxSpotTakerFee":0,' +
        '"MaxSpotMakerFee":0,"ApprovalExpiry":1800000000000,' +
        `"ExpiredAt":1700000600000,"Nonce":7,"Sig":"${sig}","L1Sig":"",` +
        '"L2TxAttributes":null}',
    )
  })

  test('behavior: L1 message template includes the chain id', () => {
    expect(
      approveIntegratorL1Message({ ...params, maxPerpsTakerFee: 500 }),
    ).toBe(
      [
        'Approve Integrator',
        '',
        'nonce: 0x0000000000000007',
        'account index: 0x0000000000000001',
        'api key index: 0x0000000000000005',
        'integrator account index: 0x00000000000003e2',
        'max perps taker fee: 0x00000000000001f4',
        'max perps maker fee: 0x0000000000000000',
        'max spot taker fee: 0x0000000000000000',
        'max spot maker fee: 0x0000000000000000',
        'approval expiry: 0x000001a3185c5000',
        'chainId: 0x0000000000000130',
        'Only sign this message for a trusted client!',
      ].join('\n'),
    )
    expect(approveIntegrator(params).messageToSign).toBe(
      approveIntegratorL1Message(params),
    )
  })

  test('behavior: caps and L1Sig enter the hash and JSON as given', () => {
    const l1Sig = `0x${'ab'.repeat(65)}`
    const tx = approveIntegrator({ ...params, maxSpotMakerFee: 10, l1Sig })
    expect(tx.txHash).not.toBe(a.tx_hash)
    const info = JSON.parse(tx.txInfo)
    expect(info.MaxSpotMakerFee).toBe(10)
    expect(info.L1Sig).toBe(l1Sig)
  })

  test('error: Validate rules', () => {
    expect(() =>
      approveIntegrator({ ...params, maxPerpsTakerFee: 1_000_001 }),
    ).toThrow(/maxPerpsTakerFee/)
    expect(() =>
      approveIntegrator({ ...params, approvalExpiry: 0, maxSpotTakerFee: 1 }),
    ).toThrow(/revocation/)
    expect(() =>
      approveIntegrator({ ...params, integratorAccountIndex: -1 }),
    ).toThrow(/integratorAccountIndex/)
    expect(approveIntegrator({ ...params, approvalExpiry: 0 }).txType).toBe(45)
  })
})
