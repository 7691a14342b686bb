import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  digestsEqual,
  hashApiKeySecret,
  mintApiKey,
  parseApiKey,
} from './apiKeyToken.js'
import { verifyWalletSignature } from './verifyWalletSignature.js'
import { walletMessage } from './walletMessage.js'

describe('api key tokens', () => {
  test('default: minted keys parse back and hash deterministically', () => {
    const k = mintApiKey('local')
    expect(k.token).toMatch(/^dn_local_[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/)
    expect(parseApiKey(k.token)).toEqual({
      env: 'local',
      keyId: k.keyId,
      secret: k.secret,
    })
    const pepper = Buffer.alloc(32, 1)
    expect(
      digestsEqual(
        hashApiKeySecret(pepper, k.secret),
        hashApiKeySecret(pepper, k.secret),
      ),
    ).toBe(true)
    expect(hashApiKeySecret(pepper, k.secret)).not.toContain(k.secret)
  })

  test('error: malformed tokens do not parse', () => {
    for (const bad of [
      '',
      'dn_local_x.y',
      'xx_local_0b8a1f3e-4a6c-4d1e-9f0a-1234567890ab.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    ]) {
      expect(parseApiKey(bad)).toBeUndefined()
    }
  })
})

describe('wallet message', () => {
  test('default: four lines, canonical payload, no trailing newline', () => {
    expect(walletMessage('dn', 'prepare', { b: 1, a: '0xAB' })).toBe(
      'service venue binding v1\ndomain=dn\naction=prepare\npayload={"a":"0xAB","b":1}',
    )
  })

  test('behavior: accepts the owner signature, refuses others and bad windows', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const other = privateKeyToAccount(generatePrivateKey())
    const nowMs = 1_800_000_000_000
    const expiresAt = nowMs / 1000 + 60
    const payload = { owner: wallet.address.toLowerCase(), expiresAt }
    const message = walletMessage('dn', 'list_api_keys', payload)
    const base = {
      domain: 'dn',
      action: 'list_api_keys',
      owner: wallet.address,
      payload,
      expiresAt,
      nowMs,
    }
    await expect(
      verifyWalletSignature({
        ...base,
        signature: await wallet.signMessage({ message }),
      }),
    ).resolves.toBeUndefined()
    await expect(
      verifyWalletSignature({
        ...base,
        signature: await other.signMessage({ message }),
      }),
    ).rejects.toMatchObject({ code: 'invalid_signature', status: 401 })
    const sig = await wallet.signMessage({ message })
    await expect(
      verifyWalletSignature({ ...base, domain: 'other', signature: sig }),
    ).rejects.toMatchObject({ code: 'invalid_signature' })
    await expect(
      verifyWalletSignature({ ...base, signature: sig, nowMs: nowMs + 61_000 }),
    ).rejects.toMatchObject({ code: 'authorization_expired' })
    await expect(
      verifyWalletSignature({
        ...base,
        signature: sig,
        expiresAt: nowMs / 1000 + 301,
      }),
    ).rejects.toMatchObject({ code: 'authorization_expiry_too_far' })
  })
})
