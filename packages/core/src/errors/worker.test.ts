import { describe, expect, test } from 'vitest'
import { AppError } from './appError.js'
import {
  CredentialUnavailableError,
  CredentialUnreadableError,
  FencedOutError,
} from './worker.js'

describe('worker errors', () => {
  test('default: CredentialUnreadableError', () => {
    const err = new CredentialUnreadableError('aster', {
      cause: new Error('Unsupported state or unable to authenticate data'),
    })
    expect(err).toBeInstanceOf(CredentialUnavailableError)
    expect(err).toBeInstanceOf(AppError)
    expect({
      name: err.name,
      code: err.code,
      status: err.status,
      venue: err.venue,
    }).toEqual({
      name: 'CredentialUnreadableError',
      code: 'credential_unreadable',
      status: 409,
      venue: 'aster',
    })
    expect(CredentialUnreadableError.code).toBe(err.code)
    expect(err.message).toMatchInlineSnapshot(
      `"the stored aster credential could not be read; rebind aster (POST /v1/venue-bindings/prepare with rebind: true)"`,
    )
  })

  test('default: CredentialUnavailableError keeps venue_not_bound', () => {
    const err = new CredentialUnavailableError('hl is not bound for 0xa')
    expect({ code: err.code, status: err.status }).toEqual({
      code: 'venue_not_bound',
      status: 409,
    })
  })

  test('default: FencedOutError', () => {
    expect(new FencedOutError('task t-1').message).toMatchInlineSnapshot(
      `"lease on task t-1 was taken over by another worker"`,
    )
  })
})
