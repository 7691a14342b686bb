import { describe, expect, test } from 'vitest'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { txAttributes, txAttributesJson } from './txAttributes.js'
import { txHash } from './txHash.js'

const v = data.self_computed_vectors
const header = (x: {
  chain_id: number
  nonce: number
  expired_at: number
  account_index: number
  api_key_index: number
}) => ({
  chainId: x.chain_id,
  nonce: x.nonce,
  expiredAt: x.expired_at,
  accountIndex: x.account_index,
  apiKeyIndex: x.api_key_index,
})
const co = v.create_order
const orderFields = [
  co.market_index,
  co.client_order_index,
  co.base_amount,
  co.price,
  co.is_ask,
  co.type,
  co.time_in_force,
  co.reduce_only,
  co.trigger_price,
  co.order_expiry,
]

describe('txHash', () => {
  test('behavior: CreateOrder (type 14) hash vector', () => {
    const h = txHash({ txType: 14, header: header(co), fields: orderFields })
    expect(f.toHex(h)).toBe(co.tx_hash)
  })

  test('behavior: CreateOrder with attribute skipNonce=1', () => {
    const h = txHash({
      txType: 14,
      header: header(co),
      fields: orderFields,
      attributes: txAttributes({ skipNonce: 1 }),
    })
    expect(f.toHex(h)).toBe(co.tx_hash_with_attr_skip_nonce_1)
  })

  test('behavior: CancelOrder (type 15) hash vector', () => {
    const c = v.cancel_order
    const h = txHash({
      txType: 15,
      header: header(c),
      fields: [c.market_index, c.index],
    })
    expect(f.toHex(h)).toBe(c.tx_hash)
  })

  test('behavior: ChangePubKey (type 8) hash vector from raw fields', () => {
    const c = v.change_pub_key
    const pk = f.fromBytes(Buffer.from(v.pk_le_hex, 'hex'))
    const h = txHash({ txType: 8, header: header(c), fields: pk })
    expect(f.toHex(h)).toBe(c.tx_hash)
  })

  test('behavior: ApproveIntegrator (type 45) hash vector from raw fields', () => {
    const a = v.approve_integrator
    const h = txHash({
      txType: 45,
      header: header(a),
      fields: [
        a.integrator_account_index,
        a.max_perps_taker_fee,
        a.max_perps_maker_fee,
        a.max_spot_taker_fee,
        a.max_spot_maker_fee,
        a.approval_expiry,
      ],
    })
    expect(f.toHex(h)).toBe(a.tx_hash)
  })

  test('behavior: nil-valued attributes leave the hash unchanged', () => {
    const plain = txHash({
      txType: 14,
      header: header(co),
      fields: orderFields,
    })
    const nil = txHash({
      txType: 14,
      header: header(co),
      fields: orderFields,
      attributes: txAttributes({ cancelAllMarketIndex: 255 }),
    })
    expect(nil).toEqual(plain)
    const set = txHash({
      txType: 14,
      header: header(co),
      fields: orderFields,
      attributes: txAttributes({ integratorAccountIndex: 994 }),
    })
    expect(set).not.toEqual(plain)
  })

  test('behavior: attribute JSON matches Go map marshalling', () => {
    expect(txAttributesJson(txAttributes(undefined))).toBeNull()
    expect(txAttributesJson(txAttributes({}))).toBeNull()
    expect(
      JSON.stringify(
        txAttributesJson(
          txAttributes({ skipNonce: 1, integratorAccountIndex: 994 }),
        ),
      ),
    ).toBe('{"1":994,"4":1}')
  })

  test('error: attribute rules of lighter-go Validate', () => {
    expect(() => txAttributes({ integratorTakerFee: 10 })).toThrow(/integrator/)
    expect(() =>
      txAttributes({
        integratorAccountIndex: 1,
        integratorTakerFee: 10,
        selfTradeBehaviorMode: 1,
      }),
    ).toThrow(/self-trade/)
    expect(() =>
      txAttributes({ selfTradeBehaviorMode: 3, selfTradeEqualityMode: 1 }),
    ).toThrow(/reduce/)
    expect(() => txAttributes({ integratorMakerFee: 1_000_001 })).toThrow(
      RangeError,
    )
    expect(() =>
      txAttributes({
        integratorAccountIndex: 1,
        integratorTakerFee: 1,
        integratorMakerFee: 1,
        skipNonce: 1,
        cancelAllMarketIndex: 3,
      }),
    ).toThrow(/at most 4/)
  })

  test('error: out-of-range header fields', () => {
    const h = header(co)
    expect(() =>
      txHash({ txType: 14, header: { ...h, apiKeyIndex: 255 }, fields: [] }),
    ).toThrow(/apiKeyIndex/)
    expect(() =>
      txHash({ txType: 14, header: { ...h, nonce: -1 }, fields: [] }),
    ).toThrow(/nonce/)
    expect(() =>
      txHash({ txType: 14, header: { ...h, expiredAt: 1.5 }, fields: [] }),
    ).toThrow(/expiredAt/)
  })
})
