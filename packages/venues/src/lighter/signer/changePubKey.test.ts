import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  CHANGE_PUB_KEY_TX_TYPE,
  changePubKey,
  changePubKeyL1Message,
} from './changePubKey.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const v = data.self_computed_vectors
const c = v.change_pub_key
const params = {
  chainId: c.chain_id,
  nonce: c.nonce,
  expiredAt: c.expired_at,
  accountIndex: c.account_index,
  apiKeyIndex: c.api_key_index,
  privateKey: `0x${v.sk_le_hex}`,
}

describe('changePubKey', () => {
  test('default: L1 message is the exact multi-line template', () => {
    const message = changePubKeyL1Message({
      publicKey: `0x${v.pk_le_hex}`,
      nonce: c.nonce,
      accountIndex: c.account_index,
      apiKeyIndex: c.api_key_index,
    })
    expect(message).toBe(c.l1_message)
    expect(message).toBe(
      [
        'Register Lighter Account',
        '',
        `pubkey: 0x${v.pk_le_hex}`,
        'nonce: 0x0000000000000000',
        'account index: 0x0000000000000001',
        'api key index: 0x0000000000000005',
        'Only sign this message for a trusted client!',
      ].join('\n'),
    )
  })

  test('behavior: L1 message takes an uppercase key without 0x', () => {
    const message = changePubKeyL1Message({
      publicKey: v.pk_le_hex.toUpperCase(),
      nonce: 255,
      accountIndex: 2 ** 47,
      apiKeyIndex: 254,
    })
    expect(message).toContain(`pubkey: 0x${v.pk_le_hex}\n`)
    expect(message).toContain('nonce: 0x00000000000000ff\n')
    expect(message).toContain('account index: 0x0000800000000000\n')
    expect(message).toContain('api key index: 0x00000000000000fe\n')
  })

  test('behavior: personal_sign of the L1 message matches the vector', async () => {
    const account = privateKeyToAccount(
      c.l1_signer_private_key as `0x${string}`,
    )
    expect(account.address).toBe('0x14791697260E4c9A71f18484C9f997B308e59325')
    const sig = await account.signMessage({ message: c.l1_message })
    expect(sig).toBe(c.l1_personal_sign)
  })

  test('behavior: signed tx reproduces the hash vector and verifies', () => {
    const tx = changePubKey({ ...params, l1Sig: c.l1_personal_sign })
    expect(tx.txType).toBe(CHANGE_PUB_KEY_TX_TYPE)
    expect(tx.txHash).toBe(c.tx_hash)
    expect(tx.messageToSign).toBe(c.l1_message)
    const info = JSON.parse(tx.txInfo)
    const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
    const pk = f.fromBytes(Buffer.from(info.PubKey, 'base64'))
    expect(f.toHex(pk)).toBe(v.pk_le_hex)
    const hash = f.fromBytes(Buffer.from(c.tx_hash, 'hex'))
    expect(schnorr.verify(pk, hash, sig)).toBe(true)
  })

  test('behavior: tx_info is Go json.Marshal of L2ChangePubKeyTxInfo', () => {
    const tx = changePubKey({ ...params, l1Sig: c.l1_personal_sign })
    const info = JSON.parse(tx.txInfo)
    expect(Object.keys(info)).toEqual([
      'AccountIndex',
      'ApiKeyIndex',
      'PubKey',
      'L1Sig',
      'ExpiredAt',
      'Nonce',
      'Sig',
      'L2TxAttributes',
    ])
    const pubKeyB64 = Buffer.from(v.pk_le_hex, 'hex').toString('base64')
    expect(tx.txInfo).toBe(
      `{"AccountIndex":1,"ApiKeyIndex":5,"PubKey":"${pubKeyB64}",` +
        `"L1Sig":"${c.l1_personal_sign}","ExpiredAt":1700000600000,` +
        `"Nonce":0,"Sig":"${info.Sig}","L2TxAttributes":null}`,
    )
    expect(Buffer.from(info.Sig, 'base64').length).toBe(80)
  })

  test('behavior: signatures are randomized, the hash is not', () => {
    const a = changePubKey(params)
    const b = changePubKey(params)
    expect(a.txHash).toBe(b.txHash)
    expect(JSON.parse(a.txInfo).Sig).not.toBe(JSON.parse(b.txInfo).Sig)
    expect(JSON.parse(a.txInfo).L1Sig).toBe('')
  })

  test('behavior: skipNonce attribute changes the hash and the JSON', () => {
    const tx = changePubKey({ ...params, attributes: { skipNonce: 1 } })
    expect(tx.txHash).not.toBe(c.tx_hash)
    expect(tx.txInfo.endsWith('"L2TxAttributes":{"4":1}}')).toBe(true)
  })

  test('error: bad key, L1 signature or fields', () => {
    expect(() => changePubKey({ ...params, privateKey: '0x12' })).toThrow(
      RangeError,
    )
    expect(() => changePubKey({ ...params, l1Sig: '0xdead' })).toThrow(/L1Sig/)
    expect(() => changePubKey({ ...params, apiKeyIndex: 255 })).toThrow(
      /apiKeyIndex/,
    )
    expect(() =>
      changePubKeyL1Message({
        publicKey: '0x00',
        nonce: 0,
        accountIndex: 1,
        apiKeyIndex: 5,
      }),
    ).toThrow(RangeError)
  })
})
