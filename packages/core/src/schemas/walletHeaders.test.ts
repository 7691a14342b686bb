import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { parseInput } from './parseInput.js'
import { WalletHeaders } from './walletHeaders.js'

const headers = {
  'x-wallet-address': `0x${'a'.repeat(40)}`,
  'x-wallet-expires-at': '1760000000',
  'x-wallet-signature': `0x${'b'.repeat(130)}`,
}
const ok = (value: unknown) => v.safeParse(WalletHeaders, value).success

describe('WalletHeaders', () => {
  test('default: the three headers pass, other headers are kept', () => {
    const all = { ...headers, host: 'localhost', 'content-length': '0' }
    expect(parseInput(WalletHeaders, all)).toEqual(all)
  })

  test('error: each header is required', () => {
    for (const key of Object.keys(headers)) {
      const { [key as keyof typeof headers]: _gone, ...rest } = headers
      expect(() => parseInput(WalletHeaders, rest)).toThrow(
        `${key}: is required`,
      )
    }
  })

  test('behavior: expires-at is integer Unix seconds as digits', () => {
    expect(ok({ ...headers, 'x-wallet-expires-at': '0' })).toBe(true)
    expect(ok({ ...headers, 'x-wallet-expires-at': '9'.repeat(15) })).toBe(true)
    for (const bad of ['', '-1', '1.5', '1e9', ' 1', '9'.repeat(16)]) {
      expect(ok({ ...headers, 'x-wallet-expires-at': bad })).toBe(false)
    }
    expect(ok({ ...headers, 'x-wallet-expires-at': 1760000000 })).toBe(false)
  })

  test('error: address and signature patterns', () => {
    expect(ok({ ...headers, 'x-wallet-address': '0x1234' })).toBe(false)
    expect(
      ok({ ...headers, 'x-wallet-signature': `0x${'b'.repeat(128)}` }),
    ).toBe(false)
    // Node joins repeated custom headers with ", "
    expect(
      ok({
        ...headers,
        'x-wallet-address': `${headers['x-wallet-address']}, ${headers['x-wallet-address']}`,
      }),
    ).toBe(false)
  })
})
