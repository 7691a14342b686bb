import { describe, expect, test } from 'vitest'
import { logLevelFromEnv } from './runtimeConfig.js'

describe('logLevelFromEnv', () => {
  test('default: info', () => {
    expect(logLevelFromEnv({})).toBe('info')
    expect(logLevelFromEnv({ DN_LOG_LEVEL: '' })).toBe('info')
  })
  test('behavior: each level, any case', () => {
    for (const level of ['debug', 'info', 'warn', 'error']) {
      expect(logLevelFromEnv({ DN_LOG_LEVEL: level.toUpperCase() })).toBe(level)
    }
  })
  test('error: another value says what is accepted', () => {
    expect(() => logLevelFromEnv({ DN_LOG_LEVEL: 'trace' })).toThrow(
      'DN_LOG_LEVEL must be one of debug, info, warn, error, not "trace"',
    )
  })
})
