import { describe, expect, expectTypeOf, test } from 'vitest'
import { AppError } from './appError.js'
import { ConflictError, ValidationError } from './domain.js'
import { ERROR_CODES, type ErrorCodeOf, isDnErrorCode } from './errorCodes.js'

describe('ERROR_CODES', () => {
  test('default: snake_case codes with an error status and a description', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
      expect(entry.status, code).toBeGreaterThanOrEqual(400)
      expect(entry.status, code).toBeLessThan(600)
      expect(entry.description.length, code).toBeGreaterThan(5)
    }
  })

  test('behavior: AppError takes its status from the table', () => {
    expect(new AppError('binding_expired', 'gone').status).toBe(410)
    expect(new ConflictError('task_not_running', 'no').status).toBe(409)
    expect(new ValidationError('bad').code).toBe('invalid_request')
  })

  test('behavior: isDnErrorCode', () => {
    expect(isDnErrorCode('rate_limited')).toBe(true)
    expect(isDnErrorCode('toString')).toBe(false)
  })

  test('types: a class only takes codes of its status', () => {
    expectTypeOf<'task_not_running'>().toExtend<ErrorCodeOf<409>>()
    expectTypeOf<'invalid_body'>().not.toExtend<ErrorCodeOf<409>>()
    // @ts-expect-error a 400 code on a 409 class
    new ConflictError('invalid_body', 'x')
  })
})
