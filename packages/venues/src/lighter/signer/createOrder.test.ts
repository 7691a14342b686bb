import { describe, expect, test } from 'vitest'
import { createOrder } from './createOrder.js'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const v = data.self_computed_vectors
const co = v.create_order
const k = ecgfp5Scalar.fromLimbs(
  data.upstream_vectors.schnorr_fixed_k.cases[0]?.k ?? [],
)
const params = {
  chainId: co.chain_id,
  nonce: co.nonce,
  expiredAt: co.expired_at,
  accountIndex: co.account_index,
  apiKeyIndex: co.api_key_index,
  privateKey: `0x${v.sk_le_hex}`,
  marketIndex: co.market_index,
  clientOrderIndex: co.client_order_index,
  baseAmount: co.base_amount,
  price: co.price,
  isAsk: false,
  type: co.type,
  timeInForce: co.time_in_force,
  reduceOnly: false,
  orderExpiry: co.order_expiry,
}
const sigOf = (txInfo: string) =>
  schnorr.fromBytes(Buffer.from(JSON.parse(txInfo).Sig, 'base64'))

describe('createOrder', () => {
  test('behavior: hash and fixed-k signature match the vectors', () => {
    const tx = createOrder({ ...params, nonceK: k })
    expect(tx.txType).toBe(14)
    expect(tx.txHash).toBe(co.tx_hash)
    const sig = Buffer.from(JSON.parse(tx.txInfo).Sig, 'base64')
    expect(sig.toString('hex')).toBe(co.sig_s_e_hex_with_k_of_upstream_case0)
  })

  test('behavior: tx_info is Go JSON in struct order', () => {
    const tx = createOrder({ ...params, nonceK: k })
    const sig = Buffer.from(co.sig_s_e_hex_with_k_of_upstream_case0, 'hex')
    expect(tx.txInfo).toBe(
      `{"AccountIndex":1,"ApiKeyIndex":0,"MarketIndex":0,"ClientOrderIndex":1,"BaseAmount":1000,"Price":50000,"IsAsk":0,"Type":0,"TimeInForce":0,"ReduceOnly":0,"TriggerPrice":0,"OrderExpiry":0,"ExpiredAt":1700000600000,"Nonce":42,"Sig":"${sig.toString('base64')}","L2TxAttributes":null}`,
    )
  })

  test('behavior: attribute {4:1} changes the hash to its vector', () => {
    const tx = createOrder({ ...params, attributes: { skipNonce: 1 } })
    expect(tx.txHash).toBe(co.tx_hash_with_attr_skip_nonce_1)
    expect(JSON.parse(tx.txInfo).L2TxAttributes).toEqual({ '4': 1 })
  })

  test('behavior: random-k signature verifies against the public key', () => {
    const tx = createOrder(params)
    const pk = f.fromBytes(Buffer.from(v.pk_le_hex, 'hex'))
    const hash = f.fromBytes(Buffer.from(tx.txHash, 'hex'))
    expect(schnorr.verify(pk, hash, sigOf(tx.txInfo))).toBe(true)
    const other = f.fromBytes(
      Buffer.from(co.tx_hash_with_attr_skip_nonce_1, 'hex'),
    )
    expect(schnorr.verify(pk, other, sigOf(tx.txInfo))).toBe(false)
  })

  test('behavior: the chain id enters the hash', () => {
    expect(createOrder({ ...params, chainId: 300 }).txHash).not.toBe(co.tx_hash)
  })

  test('error: invalid combinations', () => {
    expect(() => createOrder({ ...params, orderExpiry: 1 })).toThrow(RangeError)
    expect(() => createOrder({ ...params, timeInForce: 1 })).toThrow(RangeError)
    expect(() => createOrder({ ...params, type: 1, timeInForce: 2 })).toThrow(
      RangeError,
    )
    expect(() => createOrder({ ...params, baseAmount: 0 })).toThrow(RangeError)
    expect(() => createOrder({ ...params, price: 0 })).toThrow(RangeError)
    expect(() => createOrder({ ...params, clientOrderIndex: 2 ** 48 })).toThrow(
      RangeError,
    )
  })

  test('behavior: trigger orders carry their trigger price and expiry', () => {
    const stop = {
      ...params,
      type: 2,
      triggerPrice: 49_000,
      orderExpiry: 1_700_086_400_000,
    }
    const info = JSON.parse(createOrder(stop).txInfo)
    expect([info.Type, info.TimeInForce, info.TriggerPrice]).toEqual([
      2, 0, 49_000,
    ])
    expect(info.OrderExpiry).toBe(1_700_086_400_000)
    expect(
      JSON.parse(createOrder({ ...stop, type: 5, timeInForce: 1 }).txInfo)
        .TimeInForce,
    ).toBe(1)
    expect(createOrder(stop).txHash).not.toBe(co.tx_hash)
  })

  test('error: trigger order combinations (lighter-go Validate)', () => {
    const stop = {
      ...params,
      type: 2,
      triggerPrice: 49_000,
      orderExpiry: 1_700_086_400_000,
    }
    expect(() => createOrder({ ...stop, timeInForce: 1 })).toThrow(RangeError)
    expect(() => createOrder({ ...stop, triggerPrice: 0 })).toThrow(RangeError)
    expect(() => createOrder({ ...stop, orderExpiry: 0 })).toThrow(RangeError)
    expect(() => createOrder({ ...stop, type: 1, orderExpiry: 0 })).toThrow(
      RangeError,
    )
  })
})
