import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { MAX_AMOUNT } from './common.js'
import { CreateApiKeyBody } from './createApiKeyBody.js'
import { parseInput } from './parseInput.js'

const body = {
  owner: `0x${'1'.repeat(40)}`,
  venues: ['hl', 'aster'],
  maxSizeUsd: 1000,
  authorization: {
    nonce: 'create-key-nonce-0001',
    expiresAt: 1_760_000_000,
    signature: `0x${'e'.repeat(130)}`,
  },
}
const ok = (value: unknown) => v.safeParse(CreateApiKeyBody, value).success

describe('CreateApiKeyBody', () => {
  test('default: passes with and without label', () => {
    expect(parseInput(CreateApiKeyBody, body)).toEqual(body)
    expect(ok({ ...body, label: 'bot' })).toBe(true)
  })

  test('behavior: venues are 1..4 distinct venue ids', () => {
    expect(ok({ ...body, venues: ['lighter'] })).toBe(true)
    expect(
      ok({ ...body, venues: ['aster', 'hl', 'lighter', 'lighter-mainnet'] }),
    ).toBe(true)
    expect(ok({ ...body, venues: [] })).toBe(false)
    expect(() =>
      parseInput(CreateApiKeyBody, { ...body, venues: ['hl', 'hl'] }),
    ).toThrow('venues.1: duplicate venue')
    expect(ok({ ...body, venues: ['hl', 'okx'] })).toBe(false)
  })

  test('behavior: maxSizeUsd in (0, MAX_AMOUNT]', () => {
    expect(ok({ ...body, maxSizeUsd: 0.01 })).toBe(true)
    expect(ok({ ...body, maxSizeUsd: MAX_AMOUNT })).toBe(true)
    expect(ok({ ...body, maxSizeUsd: 0 })).toBe(false)
    expect(ok({ ...body, maxSizeUsd: MAX_AMOUNT + 1 })).toBe(false)
    expect(ok({ ...body, maxSizeUsd: '1000' })).toBe(false)
  })

  test('behavior: label is 1..64 characters', () => {
    expect(ok({ ...body, label: 'l' })).toBe(true)
    expect(ok({ ...body, label: 'l'.repeat(64) })).toBe(true)
    expect(ok({ ...body, label: '' })).toBe(false)
    expect(ok({ ...body, label: 'l'.repeat(65) })).toBe(false)
    expect(ok({ ...body, label: null })).toBe(false)
  })

  test('error: required fields and unknown keys', () => {
    for (const key of ['owner', 'venues', 'maxSizeUsd', 'authorization']) {
      const { [key as keyof typeof body]: _gone, ...rest } = body
      expect(() => parseInput(CreateApiKeyBody, rest)).toThrow(
        `${key}: is required`,
      )
    }
    expect(ok({ ...body, withdraw: true })).toBe(false)
  })

  test('property: any extra key fails', () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 1 })
          .filter((k) => !(k in CreateApiKeyBody.entries) && k !== '__proto__'),
        (key) => !ok({ ...body, [key]: null }),
      ),
    )
  })
})
