import { describe, expect, test } from 'vitest'
import {
  authMessageHash,
  createLighterAuthToken,
  parseLighterAuthToken,
  verifyLighterAuthToken,
} from './authToken.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { lighterPublicKey } from './lighterKeys.js'
import { quinticExtension as f } from './quinticExtension.js'

const v = data.self_computed_vectors
const a = v.auth_token_hash
const privateKey = `0x${v.sk_le_hex}`

describe('auth token', () => {
  test('behavior: message hash vector', () => {
    expect(f.toHex(authMessageHash(a.message))).toBe(a.hash)
  })

  test('behavior: token format, parse, verify against the key', () => {
    const token = createLighterAuthToken({
      deadline: 1700000000,
      accountIndex: 1,
      apiKeyIndex: 0,
      privateKey,
    })
    expect(token).toMatch(/^1700000000:1:0:[0-9a-f]{160}$/)
    const parsed = parseLighterAuthToken(token)
    expect(parsed).toMatchObject({
      deadline: 1700000000,
      accountIndex: 1,
      apiKeyIndex: 0,
      message: a.message,
    })
    if (!parsed) throw new Error('unparsed')
    expect(verifyLighterAuthToken(parsed, lighterPublicKey(privateKey))).toBe(
      true,
    )
    const forged = parseLighterAuthToken(token.replace(':1:0:', ':2:0:'))
    if (!forged) throw new Error('unparsed')
    expect(verifyLighterAuthToken(forged, lighterPublicKey(privateKey))).toBe(
      false,
    )
  })

  test('error: malformed tokens do not parse', () => {
    expect(parseLighterAuthToken('1:2:3')).toBeNull()
    expect(parseLighterAuthToken(`1:2:3:0x${'a'.repeat(160)}`)).toBeNull()
  })
})
