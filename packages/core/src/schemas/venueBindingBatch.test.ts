import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import {
  BindingSignRequest,
  VenueBindingBatch,
  VenueBindingResult,
} from './venueBindingBatch.js'

const typedData = {
  requestId: 'aster:approveAgent',
  venue: 'aster',
  action: 'approveAgent',
  method: 'eth_signTypedData_v4',
  payload: {
    domain: { name: 'AsterSignTransaction', version: '1', chainId: 56 },
    types: {
      ApproveAgent: [
        { name: 'AgentName', type: 'string' },
        { name: 'Nonce', type: 'uint256' },
      ],
    },
    primaryType: 'ApproveAgent',
    message: { AgentName: 'dn', Nonce: '1' },
  },
}
const personal = {
  requestId: 'lighter:changePubKey',
  venue: 'lighter',
  action: 'changePubKey',
  method: 'personal_sign',
  payload: { message: 'Register Lighter Account\n\npubkey: 0x01' },
}
const batch = {
  bindingId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  owner: `0x${'d'.repeat(40)}`,
  expiresAt: '2025-05-01T10:10:00.000Z',
  status: 'awaiting_signatures',
  results: [
    { venue: 'aster', sessionId: 's1', status: 'awaiting_signatures' },
    { venue: 'hl', sessionId: null, status: 'already_bound' },
    {
      venue: 'lighter',
      sessionId: 's2',
      status: 'failed',
      code: 'venue_rejected',
      retryable: false,
    },
  ],
  signRequests: [typedData, personal],
}
const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('VenueBindingBatch', () => {
  test('default: a batch with both kinds of sign request passes', () => {
    expect(ok(VenueBindingBatch, batch)).toBe(true)
  })

  test('error: no additional properties, all six required', () => {
    expect(ok(VenueBindingBatch, { ...batch, secret: 'x' })).toBe(false)
    for (const key of Object.keys(batch)) {
      const { [key as keyof typeof batch]: _gone, ...rest } = batch
      expect(ok(VenueBindingBatch, rest)).toBe(false)
    }
    expect(ok(VenueBindingBatch, { ...batch, status: 'queued' })).toBe(false)
  })

  test('behavior: result statuses and optional code/retryable', () => {
    expect(
      ok(VenueBindingResult, {
        venue: 'hl',
        sessionId: null,
        status: 'expired',
      }),
    ).toBe(true)
    expect(
      ok(VenueBindingResult, {
        venue: 'hl',
        sessionId: null,
        status: 'processing',
      }),
    ).toBe(false)
    expect(ok(VenueBindingResult, { venue: 'hl', status: 'bound' })).toBe(false)
  })

  test('error: payload must match the signing method', () => {
    expect(ok(BindingSignRequest, typedData)).toBe(true)
    expect(ok(BindingSignRequest, personal)).toBe(true)
    expect(
      ok(BindingSignRequest, { ...personal, method: 'eth_signTypedData_v4' }),
    ).toBe(false)
    expect(
      ok(BindingSignRequest, { ...typedData, method: 'personal_sign' }),
    ).toBe(false)
    expect(ok(BindingSignRequest, { ...personal, method: 'eth_sign' })).toBe(
      false,
    )
    expect(
      ok(BindingSignRequest, { ...personal, requestId: 'lighter-change' }),
    ).toBe(false)
  })
})
