import { describe, expect, test } from 'vitest'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'
import { txHash } from './txHash.js'
import { marginFractionOf, updateLeverage } from './updateLeverage.js'

const v = data.self_computed_vectors
const header = {
  chainId: 304,
  nonce: 9,
  expiredAt: 1700000600000,
  accountIndex: 1,
  apiKeyIndex: 5,
}

describe('updateLeverage', () => {
  test('behavior: hash of [header, market, imf, mode], Go JSON, signature verifies', () => {
    const tx = updateLeverage({
      ...header,
      privateKey: `0x${v.sk_le_hex}`,
      marketIndex: 1,
      initialMarginFraction: marginFractionOf(20),
      marginMode: 1,
    })
    expect(tx.txType).toBe(20)
    const h = txHash({ txType: 20, header, fields: [1, 500, 1] })
    expect(tx.txHash).toBe(f.toHex(h))
    const info = JSON.parse(tx.txInfo)
    expect(Object.keys(info)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'MarketIndex',
      'InitialMarginFraction',
      'MarginMode',
      'ExpiredAt',
      'Nonce',
      'Sig',
      'L2TxAttributes',
    ])
    expect(info.InitialMarginFraction).toBe(500)
    const pk = f.fromBytes(Buffer.from(v.pk_le_hex, 'hex'))
    const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
    expect(schnorr.verify(pk, h, sig)).toBe(true)
  })

  test('marginFractionOf: 10 000 / leverage, rounded up', () => {
    expect([1, 3, 10, 50].map(marginFractionOf)).toEqual([
      10000, 3334, 1000, 200,
    ])
    expect(() => marginFractionOf(0.5)).toThrow(RangeError)
  })
})
