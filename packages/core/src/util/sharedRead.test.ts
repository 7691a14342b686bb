import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createSharedRead } from './sharedRead.js'

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** A shared read over a script: each read waits for the test to answer it. */
function scripted<K = string>() {
  let t = 1_000
  const clock = { now: () => t }
  const calls: K[] = []
  const answers: ReturnType<typeof deferred<string>>[] = []
  const shared = createSharedRead<K, string>(clock, (key) => {
    calls.push(key)
    const d = deferred<string>()
    answers.push(d)
    return d.promise
  })
  return {
    shared,
    calls,
    answer: (i: number, v: string) => answers[i]?.resolve(v),
    fail: (i: number, e: unknown) => answers[i]?.reject(e),
    advance: (ms: number) => {
      t += ms
    },
    now: () => t,
  }
}

describe('createSharedRead', () => {
  test('default: concurrent gets of one key share one read', async () => {
    const s = scripted()
    const gets = Array.from({ length: 50 }, () => s.shared.get('k', 0))
    expect(s.calls).toEqual(['k'])
    s.answer(0, 'v1')
    const snaps = await Promise.all(gets)
    for (const snap of snaps) expect(snap).toEqual({ value: 'v1', at: 1_000 })
    expect(s.calls).toHaveLength(1)
  })

  test('behavior: different keys read separately', async () => {
    const s = scripted()
    const a = s.shared.get('a', 0)
    const b = s.shared.get('b', 0)
    expect(s.calls).toEqual(['a', 'b'])
    s.answer(0, 'A')
    s.answer(1, 'B')
    expect((await a).value).toBe('A')
    expect((await b).value).toBe('B')
  })

  test('behavior: a snapshot within maxAgeMs is served, an older one re-read', async () => {
    const s = scripted()
    const first = s.shared.get('k', 100)
    s.answer(0, 'v1')
    await first
    s.advance(100)
    // exactly maxAgeMs old: still served
    expect(await s.shared.get('k', 100)).toEqual({ value: 'v1', at: 1_000 })
    expect(s.calls).toHaveLength(1)
    s.advance(1)
    const second = s.shared.get('k', 100)
    expect(s.calls).toHaveLength(2)
    s.answer(1, 'v2')
    expect(await second).toEqual({ value: 'v2', at: 1_101 })
    // a caller that accepts nothing older still reads
    expect(await s.shared.get('k', 1_000)).toEqual({ value: 'v2', at: 1_101 })
    s.advance(1)
    const fresh = s.shared.get('k', 0)
    expect(s.calls).toHaveLength(3)
    s.answer(2, 'v3')
    expect((await fresh).value).toBe('v3')
  })

  test('behavior: maxAgeMs 0 serves a snapshot read at this very ms', async () => {
    const s = scripted()
    const first = s.shared.get('k', 0)
    s.answer(0, 'v1')
    await first
    expect(await s.shared.get('k', 0)).toEqual({ value: 'v1', at: 1_000 })
    s.advance(1)
    void s.shared.get('k', 0)
    expect(s.calls).toHaveLength(2)
  })

  test('behavior: the snapshot is stamped with when the read was sent', async () => {
    const s = scripted()
    const p = s.shared.get('k', 0)
    s.advance(250)
    s.answer(0, 'v')
    expect(await p).toEqual({ value: 'v', at: 1_000 })
    expect(s.shared.peek('k')).toEqual({ value: 'v', at: 1_000 })
  })

  test('error: a failed read is not cached; every waiter sees the error and the next get reads again', async () => {
    const s = scripted()
    const a = s.shared.get('k', 10_000)
    const b = s.shared.get('k', 10_000)
    const boom = new Error('venue down')
    s.fail(0, boom)
    await expect(a).rejects.toBe(boom)
    await expect(b).rejects.toBe(boom)
    expect(s.shared.peek('k')).toBeUndefined()
    const again = s.shared.get('k', 10_000)
    expect(s.calls).toHaveLength(2)
    s.answer(1, 'ok')
    expect((await again).value).toBe('ok')
  })

  test('error: a failed re-read keeps the older snapshot for peek', async () => {
    const s = scripted()
    const first = s.shared.get('k', 0)
    s.answer(0, 'v1')
    await first
    s.advance(10)
    const second = s.shared.get('k', 0)
    s.fail(1, new Error('x'))
    await expect(second).rejects.toThrow('x')
    expect(s.shared.peek('k')).toEqual({ value: 'v1', at: 1_000 })
  })

  test('behavior: amend changes the held snapshot and keeps when it was read', async () => {
    const s = scripted()
    // nothing held: nothing to change
    s.shared.amend('k', (v) => `${v}+fill`)
    expect(s.shared.peek('k')).toBeUndefined()
    const p = s.shared.get('k', 0)
    s.answer(0, 'v')
    await p
    s.advance(5)
    s.shared.amend('k', (v) => `${v}+fill`)
    expect(s.shared.peek('k')).toEqual({ value: 'v+fill', at: 1_000 })
    expect(await s.shared.get('k', 10)).toEqual({ value: 'v+fill', at: 1_000 })
    expect(s.calls).toHaveLength(1)
  })

  test('behavior: drop forgets the key and the next get reads again', async () => {
    const s = scripted()
    const first = s.shared.get('k', 0)
    s.answer(0, 'v')
    await first
    s.shared.drop('k')
    expect(s.shared.peek('k')).toBeUndefined()
    const p = s.shared.get('k', 60_000)
    expect(s.calls).toEqual(['k', 'k'])
    s.answer(1, 'fresh')
    expect((await p).value).toBe('fresh')
    // dropping an unknown key is harmless
    s.shared.drop('other')
  })

  test('behavior: a read in flight when the snapshot is amended is neither joined nor kept', async () => {
    const s = scripted()
    const first = s.shared.get('k', 0)
    s.answer(0, 'v')
    await first
    s.advance(5)
    const before = s.shared.get('k', 0)
    s.shared.amend('k', (v) => `${v}+fill`)
    const after = s.shared.get('k', 0)
    expect(s.calls).toHaveLength(3)
    s.answer(1, 'read-before-fill')
    // its own caller gets what it read; the amended snapshot stays
    expect((await before).value).toBe('read-before-fill')
    expect(s.shared.peek('k')?.value).toBe('v+fill')
    s.answer(2, 'read-after-fill')
    expect((await after).value).toBe('read-after-fill')
    expect(s.shared.peek('k')?.value).toBe('read-after-fill')
  })

  test('behavior: an in-flight result replaces an older snapshot', async () => {
    const s = scripted()
    const first = s.shared.get('k', 0)
    s.answer(0, 'old')
    await first
    s.advance(5)
    const p = s.shared.get('k', 0)
    s.answer(1, 'new')
    expect(await p).toEqual({ value: 'new', at: 1_005 })
    expect(s.shared.peek('k')?.value).toBe('new')
  })

  test('behavior: a get after drop does not join a read sent before the drop', async () => {
    const s = scripted()
    const before = s.shared.get('k', 0)
    // our own order filled meanwhile: what was read before is stale
    s.advance(5)
    s.shared.drop('k')
    const after = s.shared.get('k', 0)
    expect(s.calls).toHaveLength(2)
    s.answer(0, 'before-fill')
    s.answer(1, 'after-fill')
    expect((await before).value).toBe('before-fill')
    expect((await after).value).toBe('after-fill')
  })

  test('property: reads happen only when no young-enough snapshot and no read in flight', async () => {
    // ops: advance, get(maxAge), settle the oldest pending read
    const op = fc.oneof(
      fc.record({ kind: fc.constant('advance' as const), ms: fc.nat(50) }),
      fc.record({ kind: fc.constant('get' as const), maxAge: fc.nat(60) }),
      fc.record({ kind: fc.constant('settle' as const), ok: fc.boolean() }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
        const s = scripted()
        let settled = 0
        let inFlight = false
        let model: number | undefined // `at` of the model's snapshot
        let reads = 0
        const done: Promise<unknown>[] = []
        for (const o of ops) {
          if (o.kind === 'advance') s.advance(o.ms)
          else if (o.kind === 'get') {
            const young = model !== undefined && s.now() - model <= o.maxAge
            if (!young && !inFlight) {
              reads++
              inFlight = true
            }
            done.push(s.shared.get('k', o.maxAge).catch(() => undefined))
            expect(s.calls).toHaveLength(reads)
          } else if (inFlight) {
            const sentAt = s.calls.length - 1
            if (o.ok) s.answer(settled, `v${settled}`)
            else s.fail(settled, new Error('no'))
            settled++
            inFlight = false
            // let the settlement land
            await Promise.all(done)
            if (o.ok) {
              expect(s.shared.peek('k')?.value).toBe(`v${sentAt}`)
              model = s.shared.peek('k')?.at
            }
          }
        }
        // settle what is left so nothing dangles
        while (settled < s.calls.length) s.answer(settled++, 'end')
        await Promise.all(done)
      }),
      { numRuns: 200 },
    )
  })

  test('forgetAfterMs: snapshots of keys no longer asked are forgotten, so a key per hour does not accumulate', async () => {
    let now = 0
    const read = createSharedRead(
      { now: () => now },
      async (key: string) => `v-${key}`,
      { forgetAfterMs: 60_000 },
    )
    for (let hour = 0; hour < 5; hour++) {
      now = hour * 3_600_000
      await read.get(`user|${hour}`, 5_000)
      // the hour's own key is held while it is asked
      expect(read.peek(`user|${hour}`)?.value).toBe(`v-user|${hour}`)
      // every earlier hour's is gone
      for (let h = 0; h < hour; h++)
        expect(read.peek(`user|${h}`)).toBe(undefined)
    }
  })
})
