import { describe, expect, test } from 'vitest'
import { createLogger } from './logger.js'

function capture(o: Parameters<typeof createLogger>[0] = {}) {
  const lines: string[] = []
  const logger = createLogger({
    ...o,
    destination: { write: (l: string) => lines.push(l) },
  })
  return { logger, lines }
}

describe('createLogger', () => {
  test('default: one JSON line per event with time, level name, msg and fields', () => {
    const { logger, lines } = capture()
    logger.info('request', { requestId: 'r-1', status: 202 })
    expect(lines).toHaveLength(1)
    const line = JSON.parse(lines[0] as string)
    expect(line).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      msg: 'request',
      requestId: 'r-1',
      status: 202,
    })
  })

  test('behavior: the level drops less severe lines', () => {
    const info = capture()
    info.logger.debug?.('hidden')
    info.logger.warn?.('shown')
    expect(info.lines.map((l) => JSON.parse(l).level)).toEqual(['warn'])
    const error = capture({ level: 'error' })
    error.logger.info('hidden')
    error.logger.error('shown')
    expect(error.lines).toHaveLength(1)
    const debug = capture({ level: 'debug' })
    debug.logger.debug?.('shown')
    expect(debug.lines).toHaveLength(1)
  })

  test('behavior: secret-named fields are redacted, at the top or one level down', () => {
    const { logger, lines } = capture()
    logger.info('oops', {
      secret: 's3cr3t',
      nested: { privateKey: '0xabc', keep: 'ok' },
      authorization: 'Bearer x',
    })
    const text = lines.join('')
    expect(text).not.toContain('s3cr3t')
    expect(text).not.toContain('0xabc')
    expect(text).not.toContain('Bearer x')
    expect(JSON.parse(text).nested.keep).toBe('ok')
  })

  test('behavior: pretty lines for people', () => {
    const { logger, lines } = capture({ pretty: true })
    logger.info('request', { requestId: 'r-2' })
    const text = lines.join('')
    expect(text).toMatch(/INFO.*request/)
    expect(text).toContain('requestId: "r-2"')
    expect(() => JSON.parse(text)).toThrow()
  })
})
