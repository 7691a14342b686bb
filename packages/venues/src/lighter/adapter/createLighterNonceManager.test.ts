import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import { createLighterNonceManager } from './createLighterNonceManager.js'
import { LighterRejectedError } from './lighterRejectedError.js'

const key = { accountIndex: 1, apiKeyIndex: 5 }

function venue(start: number) {
  let fetches = 0
  return {
    fetchNext: async () => {
      fetches++
      return start
    },
    fetches: () => fetches,
  }
}

describe('createLighterNonceManager', () => {
  test('default: read once, then counted locally', async () => {
    const nonces = createLighterNonceManager()
    const v = venue(7)
    const used: number[] = []
    for (let i = 0; i < 3; i++) {
      await nonces.withNonce(key, v.fetchNext, async (n) => used.push(n))
    }
    expect(used).toEqual([7, 8, 9])
    expect(v.fetches()).toBe(1)
  })

  test('behavior: sends of one key never overlap', async () => {
    const nonces = createLighterNonceManager()
    const v = venue(0)
    let inFlight = 0
    let maxInFlight = 0
    const used = await Promise.all(
      Array.from({ length: 5 }, () =>
        nonces.withNonce(key, v.fetchNext, async (n) => {
          inFlight++
          maxInFlight = Math.max(maxInFlight, inFlight)
          await new Promise((r) => setTimeout(r, 5))
          inFlight--
          return n
        }),
      ),
    )
    expect(used).toEqual([0, 1, 2, 3, 4])
    expect(maxInFlight).toBe(1)
  })

  test('behavior: refused at the API or never sent: the nonce is reused', async () => {
    const nonces = createLighterNonceManager()
    const v = venue(3)
    for (const err of [
      new VenueRejectedError('bad price'),
      new VenueUnavailableError('refused connection'),
    ]) {
      await expect(
        nonces.withNonce(key, v.fetchNext, async () => {
          throw err
        }),
      ).rejects.toBe(err)
    }
    expect(await nonces.withNonce(key, v.fetchNext, async (n) => n)).toBe(3)
    expect(v.fetches()).toBe(1)
  })

  test('behavior: invalid nonce or an uncertain send re-reads nextNonce', async () => {
    const nonces = createLighterNonceManager()
    const v = venue(10)
    await nonces.withNonce(key, v.fetchNext, async (n) => n)
    await expect(
      nonces.withNonce(key, v.fetchNext, async () => {
        throw new LighterRejectedError(21104, 'invalid nonce')
      }),
    ).rejects.toBeInstanceOf(LighterRejectedError)
    expect(await nonces.withNonce(key, v.fetchNext, async (n) => n)).toBe(10)
    expect(v.fetches()).toBe(2)
    await expect(
      nonces.withNonce(key, v.fetchNext, async () => {
        throw new UncertainSubmissionError('timed out')
      }),
    ).rejects.toBeInstanceOf(UncertainSubmissionError)
    await nonces.withNonce(key, v.fetchNext, async (n) => n)
    expect(v.fetches()).toBe(3)
  })

  test('behavior: keys are independent', async () => {
    const nonces = createLighterNonceManager()
    const a = await nonces.withNonce(
      key,
      async () => 1,
      async (n) => n,
    )
    const b = await nonces.withNonce(
      { accountIndex: 1, apiKeyIndex: 6 },
      async () => 40,
      async (n) => n,
    )
    expect([a, b]).toEqual([1, 40])
  })
})
