import { describe, expect, test } from 'vitest'
import { cancelAllOrders } from './cancelAllOrders.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'
import { txHash } from './txHash.js'

const v = data.self_computed_vectors
const header = {
  chainId: 304,
  nonce: 3,
  expiredAt: 1700000600000,
  accountIndex: 1,
  apiKeyIndex: 5,
}

describe('cancelAllOrders', () => {
  test('behavior: hash of [header, tif, time], Go JSON, signature verifies', () => {
    const tx = cancelAllOrders({
      ...header,
      privateKey: `0x${v.sk_le_hex}`,
      timeInForce: 0,
      time: 0,
    })
    expect(tx.txType).toBe(16)
    const h = txHash({ txType: 16, header, fields: [0, 0] })
    expect(tx.txHash).toBe(f.toHex(h))
    const info = JSON.parse(tx.txInfo)
    expect(Object.keys(info)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'TimeInForce',
      'Time',
      'ExpiredAt',
      'Nonce',
      'Sig',
      'L2TxAttributes',
    ])
    const pk = f.fromBytes(Buffer.from(v.pk_le_hex, 'hex'))
    const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
    expect(schnorr.verify(pk, h, sig)).toBe(true)
  })

  test('error: time only with a scheduled cancel-all', () => {
    const p = { ...header, privateKey: `0x${v.sk_le_hex}` }
    expect(() => cancelAllOrders({ ...p, timeInForce: 0, time: 5 })).toThrow(
      RangeError,
    )
    expect(() => cancelAllOrders({ ...p, timeInForce: 1, time: 0 })).toThrow(
      RangeError,
    )
    expect(
      cancelAllOrders({ ...p, timeInForce: 1, time: 1700000900000 }).txType,
    ).toBe(16)
  })
})
