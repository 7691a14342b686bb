import { describe, expect, test } from 'vitest'
import { ecgfp5 } from './ecgfp5.js'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import {
  generateLighterKeyPair,
  lighterPublicKey,
  parseLighterPrivateKey,
  parseLighterPublicKey,
} from './lighterKeys.js'
import { poseidon2 } from './poseidon2.js'
import { schnorr } from './schnorr.js'

const self = data.self_computed_vectors

describe('lighterKeys', () => {
  test('default: generateLighterKeyPair returns 0x + 80 hex keys that match', () => {
    const { privateKey, publicKey } = generateLighterKeyPair()
    expect(privateKey).toMatch(/^0x[0-9a-f]{80}$/)
    expect(publicKey).toMatch(/^0x[0-9a-f]{80}$/)
    expect(lighterPublicKey(privateKey)).toBe(publicKey)
    const sk = parseLighterPrivateKey(privateKey)
    expect(sk > 0n && sk < ecgfp5Scalar.N).toBe(true)
    // the public key decodes to a group element and verifies a signature
    const pk = parseLighterPublicKey(publicKey)
    expect(ecgfp5.decode(pk)).not.toBeNull()
    const m = poseidon2.hashToQuinticExtension([1n])
    expect(schnorr.verify(pk, m, schnorr.sign(m, sk))).toBe(true)
  })

  test('behavior: keys are fresh each time', () => {
    const a = generateLighterKeyPair()
    const b = generateLighterKeyPair()
    expect(a.privateKey).not.toBe(b.privateKey)
    expect(a.publicKey).not.toBe(b.publicKey)
  })

  test('behavior: lighterPublicKey of the self-computed vector', () => {
    expect(lighterPublicKey(`0x${self.sk_le_hex}`)).toBe(`0x${self.pk_le_hex}`)
    expect(lighterPublicKey(self.sk_le_hex.toUpperCase())).toBe(
      `0x${self.pk_le_hex}`,
    )
  })

  test('behavior: a key at or above n is reduced like lighter-go', () => {
    const nPlus5 = Buffer.from(ecgfp5Scalar.toBytes(0n))
    let v = ecgfp5Scalar.N + 5n
    for (let i = 0; i < 40; i++) {
      nPlus5[i] = Number(v & 0xffn)
      v >>= 8n
    }
    expect(parseLighterPrivateKey(nPlus5.toString('hex'))).toBe(5n)
    const five = Buffer.from(ecgfp5Scalar.toBytes(5n)).toString('hex')
    expect(lighterPublicKey(nPlus5.toString('hex'))).toBe(
      lighterPublicKey(five),
    )
  })

  test('error: malformed or zero keys', () => {
    expect(() => lighterPublicKey('0x1234')).toThrow(RangeError)
    expect(() => lighterPublicKey(`0x${'zz'.repeat(40)}`)).toThrow(RangeError)
    expect(() => lighterPublicKey(`0x${'00'.repeat(40)}`)).toThrow(/not be 0/)
    expect(() => parseLighterPublicKey('0x')).toThrow(RangeError)
  })
})
