import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { BindingTarget } from './bindingTarget.js'
import { MAX_SAFE_INTEGER } from './common.js'
import { parseInput } from './parseInput.js'
import { PrepareVenueBindingsBody } from './prepareVenueBindingsBody.js'

const authorization = {
  nonce: 'n0nce_0123456789-AB',
  expiresAt: 1_760_000_000,
  signature: `0x${'c'.repeat(130)}`,
}
const body = {
  owner: `0x${'A'.repeat(40)}`,
  venues: [
    { venue: 'hl' },
    { venue: 'aster' },
    { venue: 'lighter', accountIndex: 7 },
    { venue: 'lighter-mainnet', accountIndex: 0, rebind: true },
  ],
  authorization,
}

const ok = (value: unknown) =>
  v.safeParse(PrepareVenueBindingsBody, value).success
const target = (value: unknown) => v.safeParse(BindingTarget, value).success

function messageOf(value: unknown): string {
  try {
    parseInput(PrepareVenueBindingsBody, value)
  } catch (err) {
    if (err instanceof ValidationError) return err.message
    throw err
  }
  return 'passed'
}

describe('BindingTarget', () => {
  test('behavior: hl takes signatureChainId 1..2^53-1 and rebind', () => {
    expect(target({ venue: 'hl', signatureChainId: 1, rebind: false })).toBe(
      true,
    )
    expect(target({ venue: 'hl', signatureChainId: MAX_SAFE_INTEGER })).toBe(
      true,
    )
    expect(target({ venue: 'hl', signatureChainId: 0 })).toBe(false)
    expect(
      target({ venue: 'hl', signatureChainId: MAX_SAFE_INTEGER + 2 }),
    ).toBe(false)
    expect(target({ venue: 'hl', signatureChainId: 1.5 })).toBe(false)
    expect(target({ venue: 'hl', accountIndex: 1 })).toBe(false)
  })

  test('behavior: aster takes only rebind', () => {
    expect(target({ venue: 'aster' })).toBe(true)
    expect(target({ venue: 'aster', rebind: true })).toBe(true)
    expect(target({ venue: 'aster', signatureChainId: 1 })).toBe(false)
    expect(target({ venue: 'aster', rebind: 'yes' })).toBe(false)
  })

  test('behavior: lighter venues need accountIndex 0..2^53-1', () => {
    for (const venue of ['lighter', 'lighter-mainnet']) {
      expect(target({ venue, accountIndex: 0 })).toBe(true)
      expect(target({ venue, accountIndex: MAX_SAFE_INTEGER })).toBe(true)
      expect(target({ venue })).toBe(false)
      expect(target({ venue, accountIndex: -1 })).toBe(false)
      expect(target({ venue, accountIndex: 2.5 })).toBe(false)
      expect(target({ venue, accountIndex: '7' })).toBe(false)
      expect(target({ venue, accountIndex: 1, signatureChainId: 1 })).toBe(
        false,
      )
    }
  })

  test('error: unknown venue', () => {
    expect(target({ venue: 'binance' })).toBe(false)
    expect(target({})).toBe(false)
  })
})

describe('PrepareVenueBindingsBody', () => {
  test('default: all four venues pass', () => {
    expect(parseInput(PrepareVenueBindingsBody, body)).toEqual(body)
  })

  test('behavior: 1..4 venues', () => {
    expect(ok({ ...body, venues: [{ venue: 'aster' }] })).toBe(true)
    expect(messageOf({ ...body, venues: [] })).toBe(
      'venues: must have at least 1 item',
    )
    expect(ok({ ...body, venues: [...body.venues, { venue: 'hl' }] })).toBe(
      false,
    )
  })

  test('error: venues must be distinct', () => {
    expect(
      messageOf({
        ...body,
        venues: [{ venue: 'aster' }, { venue: 'hl' }, { venue: 'aster' }],
      }),
    ).toBe('venues.2: duplicate venue')
  })

  test('error: lighter target without accountIndex names its path', () => {
    expect(messageOf({ ...body, venues: [{ venue: 'lighter' }] })).toBe(
      'venues.0.accountIndex: is required',
    )
  })

  test('behavior: authorization nonce, expiresAt and signature', () => {
    const auth = (patch: object) => ({
      ...body,
      authorization: { ...authorization, ...patch },
    })
    expect(ok(auth({ nonce: 'a'.repeat(16) }))).toBe(true)
    expect(ok(auth({ nonce: 'a'.repeat(128) }))).toBe(true)
    expect(ok(auth({ nonce: 'a'.repeat(15) }))).toBe(false)
    expect(ok(auth({ nonce: 'a'.repeat(129) }))).toBe(false)
    expect(ok(auth({ nonce: `${'a'.repeat(16)}!` }))).toBe(false)
    expect(ok(auth({ expiresAt: 1.5 }))).toBe(false)
    expect(ok(auth({ expiresAt: '1760000000' }))).toBe(false)
    expect(ok(auth({ signature: '0x00' }))).toBe(false)
    expect(messageOf(auth({ extra: 1 }))).toBe(
      'authorization: unknown field "extra"',
    )
  })

  test('error: owner pattern and unknown fields', () => {
    expect(ok({ ...body, owner: '0xabc' })).toBe(false)
    expect(messageOf({ ...body, env: 'prod' })).toBe('unknown field "env"')
  })

  test('property: any distinct subset of venues in any order passes', () => {
    fc.assert(
      fc.property(
        fc.shuffledSubarray(body.venues, { minLength: 1 }),
        (venues) => ok({ ...body, venues }),
      ),
    )
  })
})
