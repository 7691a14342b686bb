import { describe, expect, test } from 'vitest'
import { lighterAccountFees } from './lighterAccountFees.js'

describe('lighterAccountFees', () => {
  test('default: a standard account pays no fees', () => {
    expect(lighterAccountFees({ accounts: [{ account_type: 0 }] })).toBe('0')
  })

  test('a premium account: its fees are not known from the order', () => {
    expect(lighterAccountFees({ accounts: [{ account_type: 1 }] })).toBeNull()
  })

  test('an answer without the tier: undefined', () => {
    expect(lighterAccountFees({ accounts: [{}] })).toBeUndefined()
    expect(lighterAccountFees({})).toBeUndefined()
  })
})
