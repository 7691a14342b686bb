import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { decodeCursor, encodeCursor } from './cursor.js'

const pos = {
  updatedAt: '2026-11-23T10:20:30.456Z',
  id: '0b8a1f3e-4a6c-4d1e-9f0a-1234567890ab',
}

describe('cursor', () => {
  test('default: round-trips under the same filter and is url-safe', () => {
    const c = encodeCursor(pos, { status: 'pending' })
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeCursor(c, { status: 'pending' })).toEqual(pos)
  })

  test('error: a cursor used with another filter is refused', () => {
    const c = encodeCursor(pos, { status: 'pending' })
    expect(() => decodeCursor(c, { status: 'running' })).toThrow(
      expect.objectContaining({ code: 'cursor_filter_mismatch' }),
    )
    expect(() =>
      decodeCursor(c, {
        status: 'pending',
        updatedSince: '2026-01-01T00:00:00.0Z',
      }),
    ).toThrow(ValidationError)
  })

  test('error: garbage is invalid_cursor', () => {
    for (const bad of [
      'abc',
      Buffer.from('[1,2,3]').toString('base64url'),
      Buffer.from('["x","y","z"]').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad, {})).toThrow(
        expect.objectContaining({ code: 'invalid_cursor' }),
      )
    }
  })
})
