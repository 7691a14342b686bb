import { describe, expect, test } from 'vitest'
import { task } from '../ports/store.contract.js'
import { FIXTURE_OWNER, memoryWorker } from './memoryVenue.fixture.js'
import { withLegLocks } from './taskMarkets.js'
import type { TaskStep } from './taskStep.js'

describe('withLegLocks', () => {
  test('two tasks with opposite legs on the same two account markets: one of them gets both locks', async () => {
    const w = await memoryWorker(['hl', 'aster'])
    const step = (t: ReturnType<typeof task>) =>
      ({ deps: w.deps, task: t, now: w.clock.ms }) as unknown as TaskStep
    // A long hl BTC / short aster BTCUSDT; B the other way round
    const a = task({ owner: FIXTURE_OWNER, status: 'closing' })
    const b = task({
      owner: FIXTURE_OWNER,
      status: 'closing',
      longVenue: 'aster',
      longMarket: 'BTCUSDT',
      shortVenue: 'hl',
      shortMarket: 'BTC',
    })
    const ran: string[] = []
    let release: () => void = () => {}
    const held = new Promise<void>((r) => {
      release = r
    })
    const run = (s: TaskStep, name: string) =>
      withLegLocks(s, async () => {
        ran.push(name)
        await held
        return null
      })
    // both start at once: each takes its first lock before either its second
    const both = Promise.all([run(step(a), 'A'), run(step(b), 'B')])
    await new Promise((r) => setTimeout(r, 50))
    release()
    const next = await both
    expect(ran).toHaveLength(1)
    // the other is told to come back shortly
    expect(next.filter((n) => n === w.clock.ms + 200)).toHaveLength(1)
  })
})
