import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { parseInput } from './parseInput.js'
import { RevokeApiKeyBody } from './revokeApiKeyBody.js'

const body = {
  owner: `0x${'2'.repeat(40)}`,
  authorization: {
    nonce: 'revoke-key-nonce-01',
    expiresAt: 1_760_000_000,
    signature: `0x${'f'.repeat(130)}`,
  },
}
const ok = (value: unknown) => v.safeParse(RevokeApiKeyBody, value).success

describe('RevokeApiKeyBody', () => {
  test('default: owner and authorization pass', () => {
    expect(parseInput(RevokeApiKeyBody, body)).toEqual(body)
  })

  test('error: missing parts, bad owner, extra keys', () => {
    expect(ok({ owner: body.owner })).toBe(false)
    expect(ok({ authorization: body.authorization })).toBe(false)
    expect(ok({ ...body, owner: 'alice' })).toBe(false)
    expect(() => parseInput(RevokeApiKeyBody, { ...body, keyId: 'x' })).toThrow(
      'unknown field "keyId"',
    )
    expect(
      ok({ ...body, authorization: { ...body.authorization, nonce: 'short' } }),
    ).toBe(false)
  })
})
