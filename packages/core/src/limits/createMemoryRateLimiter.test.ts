import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createMemoryRateLimiter } from './createMemoryRateLimiter.js'

function clock(start = 1_000_000) {
  let now = start
  return {
    now: () => now,
    set: (t: number) => {
      now = t
    },
  }
}

describe('createMemoryRateLimiter', () => {
  test('default: 120 per minute, remaining counts down, then 429 with reset', async () => {
    const c = clock()
    const rl = createMemoryRateLimiter({ clock: c })
    for (let i = 0; i < 120; i++) {
      const hit = await rl.hit('k')
      expect(hit).toMatchObject({ allowed: true, remaining: 119 - i })
    }
    const denied = await rl.hit('k')
    expect(denied.allowed).toBe(false)
    expect(denied.resetMs).toBe(60_000)
    c.set(1_000_000 + 60_000)
    expect((await rl.hit('k')).allowed).toBe(true)
  })

  test('behavior: buckets are independent', async () => {
    const rl = createMemoryRateLimiter({
      policy: { limit: 1, windowMs: 1000 },
      clock: clock(),
    })
    expect((await rl.hit('a')).allowed).toBe(true)
    expect((await rl.hit('a')).allowed).toBe(false)
    expect((await rl.hit('b')).allowed).toBe(true)
  })

  test('behavior: never more than limit accepted in any window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 200 }),
        async (gaps) => {
          const c = clock(0)
          const rl = createMemoryRateLimiter({
            policy: { limit: 5, windowMs: 1000 },
            clock: c,
          })
          const accepted: number[] = []
          let t = 0
          for (const g of gaps) {
            t += g % 400
            c.set(t)
            if ((await rl.hit('k')).allowed) accepted.push(t)
          }
          for (let i = 5; i < accepted.length; i++) {
            expect(
              (accepted[i] as number) - (accepted[i - 5] as number),
            ).toBeGreaterThanOrEqual(1000)
          }
        },
      ),
    )
  })

  test('behavior: idle buckets are pruned past maxBuckets', async () => {
    const c = clock(0)
    const rl = createMemoryRateLimiter({
      policy: { limit: 1, windowMs: 10 },
      clock: c,
      maxBuckets: 10,
    })
    for (let i = 0; i < 10; i++) await rl.hit(`b${i}`)
    c.set(100)
    // would grow past 10 without pruning; the old ones are gone, so b0 is fresh
    await rl.hit('new')
    expect((await rl.hit('b0')).remaining).toBe(0)
  })
})
