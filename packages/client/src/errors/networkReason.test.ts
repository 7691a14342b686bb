import { describe, expect, test } from 'vitest'
import { networkReason } from './networkReason.js'

/** What Node's fetch throws: `TypeError: fetch failed` around the cause. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause })
const sys = (code: string) => Object.assign(new Error(code), { code })

describe('networkReason', () => {
  test('default: socket codes in the cause', () => {
    expect(networkReason(fetchFailed(sys('ECONNREFUSED')))).toBe('refused')
    expect(networkReason(fetchFailed(sys('ENOTFOUND')))).toBe('dns')
    expect(networkReason(fetchFailed(sys('EAI_AGAIN')))).toBe('dns')
    expect(networkReason(fetchFailed(sys('UND_ERR_CONNECT_TIMEOUT')))).toBe(
      'timeout',
    )
    expect(networkReason(fetchFailed(sys('ECONNRESET')))).toBe('reset')
    expect(networkReason(fetchFailed(sys('UND_ERR_SOCKET')))).toBe('reset')
  })

  test('behavior: an AggregateError two levels down is found', () => {
    // happy-eyeballs: fetch failed -> AggregateError -> per-address errors
    const inner = Object.assign(new AggregateError([sys('ECONNREFUSED')]), {
      code: 'ECONNREFUSED',
    })
    expect(networkReason(fetchFailed(inner))).toBe('refused')
  })

  test('behavior: an expired AbortSignal.timeout is a timeout', () => {
    expect(networkReason(new DOMException('timed out', 'TimeoutError'))).toBe(
      'timeout',
    )
  })

  test('behavior: anything else is other', () => {
    expect(networkReason(new Error('boom'))).toBe('other')
    expect(networkReason(undefined)).toBe('other')
    expect(networkReason(fetchFailed(sys('EPROTO')))).toBe('other')
  })
})
