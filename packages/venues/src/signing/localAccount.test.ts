import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { localAccount } from './localAccount.js'

describe('localAccount', () => {
  test('derives the key’s account once, and it signs as viem’s own', async () => {
    const key = generatePrivateKey()
    const account = localAccount(key)
    expect(localAccount(key)).toBe(account)
    const fresh = privateKeyToAccount(key)
    expect(account.address).toBe(fresh.address)
    expect(await account.signMessage({ message: 'dn' })).toBe(
      await fresh.signMessage({ message: 'dn' }),
    )
  })

  test('keeps at most 1,024 keys, the least recently used dropped first', () => {
    const first = generatePrivateKey()
    const kept = generatePrivateKey()
    const a = localAccount(first)
    const b = localAccount(kept)
    for (let i = 0; i < 1_023; i++) {
      localAccount(generatePrivateKey())
      // used again and again: never the least recently used
      expect(localAccount(kept)).toBe(b)
    }
    expect(localAccount(kept)).toBe(b)
    expect(localAccount(first)).not.toBe(a)
  })
})
