import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ConflictError, ValidationError } from '../errors/domain.js'
import { errorBody } from '../errors/errorBody.js'
import { BindingError } from './bindingError.js'
import { ErrorBody } from './errorBody.js'
import { Health } from './health.js'

const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('ErrorBody', () => {
  test('default: the server error body of any AppError matches', () => {
    expect(
      ok(ErrorBody, errorBody(new ConflictError('task_not_running', 'busy'))),
    ).toBe(true)
    const invalid = new ValidationError('sizeUsd: must be >= 10', [
      { path: 'sizeUsd', message: 'must be >= 10' },
    ])
    expect(ok(ErrorBody, errorBody(invalid))).toBe(true)
  })

  test('behavior: extra properties allowed, error and code required', () => {
    expect(ok(ErrorBody, { error: 'e', code: 'c', retryable: true })).toBe(true)
    expect(ok(ErrorBody, { error: 'e' })).toBe(false)
    expect(ok(ErrorBody, { code: 'c' })).toBe(false)
    expect(ok(ErrorBody, { error: 'e', code: 'c', issues: 'x' })).toBe(false)
  })
})

describe('BindingError', () => {
  test('behavior: exactly code and error', () => {
    expect(
      ok(BindingError, { code: 'binding_expired', error: 'expired' }),
    ).toBe(true)
    expect(ok(BindingError, { code: 'c', error: 'e', issues: [] })).toBe(false)
    expect(ok(BindingError, { code: 'c' })).toBe(false)
  })
})

describe('Health', () => {
  test('behavior: ok is literally true', () => {
    expect(ok(Health, { ok: true })).toBe(true)
    expect(ok(Health, { ok: false })).toBe(false)
    expect(ok(Health, {})).toBe(false)
  })
})
