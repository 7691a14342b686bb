import { describe, expect, test } from 'vitest'
import { createAesGcmSecrets } from './createAesGcmSecrets.js'

const secrets = createAesGcmSecrets(Buffer.alloc(32, 3))

function flip(ct: string, part: number): string {
  const parts = ct.split('.')
  const bytes = Buffer.from(parts[part] as string, 'base64url')
  bytes[0] = (bytes[0] as number) ^ 1
  parts[part] = bytes.toString('base64url')
  return parts.join('.')
}

describe('createAesGcmSecrets', () => {
  test('default: round-trips and never shows the plaintext', () => {
    const ct = secrets.encrypt('0xagent-private-key', 'binding|a|hl')
    expect(ct).not.toContain('agent')
    expect(secrets.decrypt(ct, 'binding|a|hl')).toBe('0xagent-private-key')
  })

  test('error: a flipped byte in iv, tag or ciphertext, or another aad, fails', () => {
    const ct = secrets.encrypt('secret', 'row-1')
    for (const part of [1, 2, 3])
      expect(() => secrets.decrypt(flip(ct, part), 'row-1')).toThrow()
    expect(() => secrets.decrypt(ct, 'row-2')).toThrow()
    expect(() =>
      createAesGcmSecrets(Buffer.alloc(32, 4)).decrypt(ct, 'row-1'),
    ).toThrow()
  })

  test('behavior: 100,000 encryptions use 100,000 distinct IVs', () => {
    const ivs = new Set<string>()
    for (let i = 0; i < 100_000; i++)
      ivs.add(secrets.encrypt('x', 'a').split('.')[1] as string)
    expect(ivs.size).toBe(100_000)
  })
})
