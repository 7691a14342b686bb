import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { parseInput } from './parseInput.js'
import { SubmitVenueBindingsBody } from './submitVenueBindingsBody.js'

const signature = `0x${'d'.repeat(130)}`
const item = (requestId: string) => ({ requestId, signature })
const ok = (value: unknown) =>
  v.safeParse(SubmitVenueBindingsBody, value).success

describe('SubmitVenueBindingsBody', () => {
  test('default: one signature passes', () => {
    const body = { signatures: [item('hl:approveAgent')] }
    expect(parseInput(SubmitVenueBindingsBody, body)).toEqual(body)
  })

  test('behavior: 1..8 signatures', () => {
    const eight = Array.from({ length: 8 }, (_, i) => item(`r${i}`))
    expect(ok({ signatures: eight })).toBe(true)
    expect(ok({ signatures: [...eight, item('r8')] })).toBe(false)
    expect(ok({ signatures: [] })).toBe(false)
  })

  test('error: both fields required, signature pattern, no extras', () => {
    expect(() =>
      parseInput(SubmitVenueBindingsBody, { signatures: [{ signature }] }),
    ).toThrow('signatures.0.requestId: is required')
    expect(ok({ signatures: [{ requestId: 'hl:approveAgent' }] })).toBe(false)
    expect(
      ok({ signatures: [item('x')].map((i) => ({ ...i, signature: '0x' })) }),
    ).toBe(false)
    expect(() =>
      parseInput(SubmitVenueBindingsBody, {
        signatures: [{ ...item('x'), venue: 'hl' }],
      }),
    ).toThrow('signatures.0: unknown field "venue"')
    expect(ok({ signatures: [item('x')], bindingId: 'x' })).toBe(false)
    expect(ok({})).toBe(false)
  })
})
