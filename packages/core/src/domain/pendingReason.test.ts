import { describe, expect, test } from 'vitest'
import { dec } from '../util/decimal.js'
import {
  ACCOUNT_BUSY,
  fundingBelowMin,
  sameReason,
  venueOutage,
} from './pendingReason.js'

describe('pending reasons', () => {
  test('venue outages name the venue and say why', () => {
    expect(venueOutage('hl', true, 'hl: not sent')).toEqual({
      code: 'venue_budget',
      message: 'waiting for hl request budget: hl: not sent',
      venue: 'hl',
    })
    expect(venueOutage('aster', false, 'connect ECONNREFUSED')).toEqual({
      code: 'venue_unavailable',
      message: 'aster unavailable: connect ECONNREFUSED',
      venue: 'aster',
    })
    expect(venueOutage(null, false, 'x').message).toBe('a venue unavailable: x')
  })

  test('the same reason is one that shows the same', () => {
    const a = fundingBelowMin(dec('3.071'), '5')
    expect(sameReason(a, fundingBelowMin(dec('3.0749'), '5'))).toBe(true)
    expect(sameReason(a, fundingBelowMin(dec('3.08'), '5'))).toBe(false)
    expect(sameReason(a, ACCOUNT_BUSY)).toBe(false)
    expect(sameReason(null, undefined)).toBe(true)
    expect(sameReason(null, ACCOUNT_BUSY)).toBe(false)
  })
})
