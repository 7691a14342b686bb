import { describe, expect, test } from 'vitest'
import { cancelOrder } from './cancelOrder.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const v = data.self_computed_vectors
const c = v.cancel_order
const params = {
  chainId: c.chain_id,
  nonce: c.nonce,
  expiredAt: c.expired_at,
  accountIndex: c.account_index,
  apiKeyIndex: c.api_key_index,
  privateKey: `0x${v.sk_le_hex}`,
  marketIndex: c.market_index,
  index: c.index,
}

describe('cancelOrder', () => {
  test('behavior: hash vector, Go JSON, verifying signature', () => {
    const tx = cancelOrder(params)
    expect(tx.txType).toBe(15)
    expect(tx.txHash).toBe(c.tx_hash)
    const info = JSON.parse(tx.txInfo)
    expect(Object.keys(info)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'MarketIndex',
      'Index',
      'ExpiredAt',
      'Nonce',
      'Sig',
      'L2TxAttributes',
    ])
    expect(info).toMatchObject({ MarketIndex: 0, Index: 12345, Nonce: 42 })
    const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
    const pk = f.fromBytes(Buffer.from(v.pk_le_hex, 'hex'))
    expect(
      schnorr.verify(pk, f.fromBytes(Buffer.from(c.tx_hash, 'hex')), sig),
    ).toBe(true)
  })

  test('error: index 0 is no order', () => {
    expect(() => cancelOrder({ ...params, index: 0 })).toThrow(RangeError)
  })
})
