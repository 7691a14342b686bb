import { runMonitorSweep, runWorkerRound, type VenueCredential } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

/**
 * The monitor sweep: running tasks evaluated without a lease against
 * snapshots read once per market and once per account, rows written only
 * when something they show changed, close rules handed to a claim.
 */
describe.each(dialects())('the monitor sweep (%s)', (dialect) => {
  let bed: WorkerBed
  /** made before any test moves the clock past their signatures */
  let cadenceOwners: TestOwner[]
  beforeAll(async () => {
    bed = await startWorkerBed({ dialect, fundingGraceMs: 60_000 })
    cadenceOwners = [await bed.owner(), await bed.owner(), await bed.owner()]
  })
  afterAll(() => bed?.close())

  const create = (o: TestOwner, body: Record<string, unknown> = {}) =>
    bed.createTask(o, { sizeUsd: 1_000, ...body })
  const row = async (id: string) => {
    const t = await bed.svc.store.tasks.get(id)
    if (!t) throw new Error(`no task ${id}`)
    return t
  }
  async function closeAll(o: TestOwner, ids: readonly string[]) {
    for (const id of ids) {
      await bed.taskAction(o, id, 'close')
    }
    await bed.drain()
  }

  test('one positions read per account and one quote per market serve every task; an unchanged task is not written', async () => {
    const owners = [await bed.owner(), await bed.owner(), await bed.owner()]
    const ids: string[] = []
    const eth = { longMarket: 'ETHUSDT', shortMarket: 'ETH' }
    for (const o of owners) ids.push(await create(o), await create(o, eth))
    await bed.drain()
    for (const id of ids) expect((await row(id)).status).toBe('running')

    const calls = { positions: 0, quote: 0 }
    const restore: (() => void)[] = []
    for (const v of ['aster', 'lighter'] as const) {
      const a = bed.venues.adapters[v]
      const { positions, quote } = a
      restore.push(() => Object.assign(a, { positions, quote }))
      a.positions = (...args) => {
        calls.positions++
        return positions.apply(a, args)
      }
      a.quote = (...args) => {
        calls.quote++
        return quote.apply(a, args)
      }
    }
    // past the positions snapshots' age, without running a round
    bed.clock.advance(11_000)
    const first = await runMonitorSweep(bed.worker)
    expect(first.evaluated).toBe(6)
    expect(first.escalated).toBe(0)
    // 3 owners × 2 venues, and 2 markets a venue, however many tasks
    expect(calls).toEqual({ positions: 6, quote: 4 })
    for (const id of ids) {
      const t = await row(id)
      expect(t).toMatchObject({
        longPrice: bed.venues.exchanges.aster.quote(t.longMarket).mark,
        shortPrice: bed.venues.exchanges.lighter.quote(t.shortMarket).mark,
        leaseOwner: null,
      })
    }
    expect(first.written).toBe(6)

    // the same snapshots again: nothing shown changed, nothing is written
    const before = await Promise.all(ids.map(row))
    const second = await runMonitorSweep(bed.worker)
    expect(second).toEqual({ evaluated: 6, written: 0, escalated: 0 })
    expect(await Promise.all(ids.map(row))).toEqual(before)
    // the snapshots are young: the second sweep read no positions
    expect(calls.positions).toBe(6)

    for (const undo of restore) undo()
    for (const [i, o] of owners.entries()) {
      await closeAll(o, ids.slice(2 * i, 2 * i + 2))
    }
  })

  test('a task due for its funding claim is still evaluated until it is claimed', async () => {
    const o = await bed.owner()
    const id = await create(o)
    await bed.drain()
    // due, as every task is on the hour, and not claimed yet
    await bed.svc.store.tasks.update(id, {
      nextCheckAt: new Date(bed.clock.now() - 1).toISOString(),
      longPrice: '1',
      updatedAt: new Date(bed.clock.now()).toISOString(),
    })
    const swept = await runMonitorSweep(bed.worker)
    expect(swept.evaluated).toBeGreaterThanOrEqual(1)
    const t = await row(id)
    expect(t.longPrice).toBe(bed.venues.exchanges.aster.quote('BTCUSDT').mark)
    await closeAll(o, [id])
  })

  test('each venue is told its accounts busiest first; a streamed account is read through every sweep and leaves the cadence', async () => {
    const [busy, quiet] = [await bed.owner(), await bed.owner()]
    const ids = [
      await create(busy),
      await create(busy, { longMarket: 'ETHUSDT', shortMarket: 'ETH' }),
      await create(quiet),
    ]
    await bed.drain()
    const aster = bed.venues.adapters.aster
    const named: string[][] = []
    const reads: string[] = []
    let credentialOf: (() => Promise<VenueCredential>) | undefined
    const { positions } = aster
    aster.streamAccounts = (accounts) => {
      named.push(accounts.map((a) => a.owner))
      credentialOf = accounts[0]?.credential
    }
    // the busy owner's account is streamed: free to read
    aster.accountStreamed = (owner) => owner === busy.owner
    // otherwise one read a minute for everyone: a minute's cadence
    aster.accountReadsPerMinute = () => 1
    aster.positions = (cred, options) => {
      reads.push(cred.owner)
      return positions.call(aster, cred, options)
    }
    try {
      for (let i = 0; i < 3; i++) {
        bed.clock.advance(1_000)
        await runMonitorSweep(bed.worker)
      }
    } finally {
      delete aster.streamAccounts
      delete aster.accountStreamed
      delete aster.accountReadsPerMinute
      aster.positions = positions
    }
    expect(named.at(-1)).toEqual([busy.owner, quiet.owner])
    // a venue whose stream needs the account's key gets it on demand
    expect((await credentialOf?.())?.owner).toBe(busy.owner)
    // read through on every sweep; the other kept its snapshot
    expect(reads.filter((o) => o === busy.owner)).toHaveLength(3)
    expect(reads.filter((o) => o === quiet.owner).length).toBeLessThanOrEqual(1)
    await closeAll(busy, ids.slice(0, 2))
    await closeAll(quiet, ids.slice(2))
  })

  test('an account falling due before the next sweep is read in this one (leadMs: the last sweep period), never earlier than half its age', async () => {
    const o = await bed.owner()
    const id = await create(o)
    await bed.drain()
    const aster = bed.venues.adapters.aster
    const { positions } = aster
    // budget enough: a snapshot may be 10 s old (times 1 to 1.05)
    aster.accountReadsPerMinute = () => 10_000
    let reads = 0
    aster.positions = (cred, options) => {
      if (cred.owner === o.owner) reads++
      return positions.call(aster, cred, options)
    }
    try {
      bed.clock.advance(11_000)
      await runMonitorSweep(bed.worker)
      expect(reads).toBe(1)
      // 9 s on: not due yet (10 to 10.5 s), the next sweep half a second away
      bed.clock.advance(9_000)
      await runMonitorSweep(bed.worker, { leadMs: 500 })
      expect(reads).toBe(1)
      // but sweeps 2 s apart would next look past its due time
      await runMonitorSweep(bed.worker, { leadMs: 2_000 })
      expect(reads).toBe(2)
      // a lead longer than half the age reads at half the age, not sooner
      bed.clock.advance(4_000)
      await runMonitorSweep(bed.worker, { leadMs: 50_000 })
      expect(reads).toBe(2)
      bed.clock.advance(1_500)
      await runMonitorSweep(bed.worker, { leadMs: 50_000 })
      expect(reads).toBe(3)
    } finally {
      delete aster.accountReadsPerMinute
      aster.positions = positions
      await closeAll(o, [id])
    }
  })

  test('a claimed funding step reads no positions the sweep read within the minute', async () => {
    const o = await bed.owner()
    const id = await create(o)
    await bed.drain()
    const aster = bed.venues.adapters.aster
    const { positions } = aster
    // one read a minute: the sweep keeps a snapshot up to a minute old
    aster.accountReadsPerMinute = () => 1
    let reads = 0
    aster.positions = (cred, options) => {
      if (cred.owner === o.owner) reads++
      return positions.call(aster, cred, options)
    }
    try {
      bed.clock.advance(1_000)
      await runMonitorSweep(bed.worker)
      reads = 0
      // 30 s on, its funding comes due and a claim books it
      bed.clock.advance(30_000)
      await bed.svc.store.tasks.update(id, {
        nextCheckAt: new Date(bed.clock.now()).toISOString(),
        updatedAt: new Date(bed.clock.now()).toISOString(),
      })
      const t = await row(id)
      await bed.svc.store.tasks.update(id, {
        engineState: {
          ...(t.engineState as NonNullable<typeof t.engineState>),
          fundingCheckAt: new Date(bed.clock.now()).toISOString(),
        },
        updatedAt: new Date(bed.clock.now()).toISOString(),
      })
      await runWorkerRound(bed.worker, 16, false)
      const after = await row(id)
      expect(Date.parse(after.nextCheckAt ?? '')).toBeGreaterThan(
        bed.clock.now(),
      )
      expect(reads).toBe(0)
    } finally {
      delete aster.accountReadsPerMinute
      aster.positions = positions
    }
    await closeAll(o, [id])
  })

  test('a leg liquidated at the venue: the sweep hands the task to a claim, which closes it', async () => {
    const o = await bed.owner()
    const aster = bed.venues.exchanges.aster
    // isolated at 20x: liquidated about 5 % below entry
    aster.setLeverage(o.owner, 'BTCUSDT', 20, 'isolated')
    const id = await create(o)
    await bed.drain()
    const running = await row(id)
    expect(running.status).toBe('running')
    const at = bed.clock.now()
    expect(Date.parse(running.nextCheckAt ?? '')).toBeGreaterThan(at)
    const mark = Number(aster.quote('BTCUSDT').mark)
    aster.setMark('BTCUSDT', String(Math.round(mark * 0.85)))
    bed.clock.advance(11_000)
    expect(aster.liquidations(o.owner).length).toBe(1)
    const sweep = await runMonitorSweep(bed.worker)
    expect(sweep.escalated).toBe(1)
    const handed = await row(id)
    expect(handed).toMatchObject({
      status: 'closing',
      closeReason: 'leg_liquidated',
      longSize: '0',
      leaseOwner: null,
    })
    expect(Date.parse(handed.nextCheckAt ?? '')).toBeLessThanOrEqual(
      bed.clock.now(),
    )
    aster.setMark('BTCUSDT', null)
    await bed.drain()
    expect(await row(id)).toMatchObject({
      status: 'closed',
      closeReason: 'leg_liquidated',
      longSize: '0',
    })
    aster.setLeverage(o.owner, 'BTCUSDT', 10, 'cross')
  })

  test('a close requested while a claimed step runs is carried out at once, not at the next funding check', async () => {
    const o = await bed.owner()
    const id = await create(o)
    await bed.drain()
    const running = await row(id)
    expect(running.status).toBe('running')
    // the claimed step of a running task is its funding check, an hour out
    const due = Date.parse(running.nextCheckAt ?? '')
    expect(due - bed.clock.now()).toBeGreaterThan(60_000)
    bed.clock.advance(due - bed.clock.now() + 1)
    const a = bed.venues.adapters.aster
    const { funding } = a
    let requested = false
    a.funding = async (...args) => {
      if (!requested) {
        requested = true
        const res = await bed.taskAction(o, id, 'close')
        expect(res.body).toEqual({ taskId: id, status: 'close_queued' })
      }
      return funding.apply(a, args)
    }
    try {
      await bed.drain()
    } finally {
      a.funding = funding
    }
    expect(requested).toBe(true)
    expect(await row(id)).toMatchObject({
      status: 'closed',
      closeReason: 'requested',
    })
  })

  test("positions are read as often as the venue's per-IP budget allows for every watched account, and never less often than each 10 s otherwise", async () => {
    const owners = cadenceOwners
    const ids: string[] = []
    for (const o of owners) ids.push(await create(o))
    await bed.drain()
    const reads = { aster: 0, lighter: 0 }
    const restore: (() => void)[] = []
    for (const v of ['aster', 'lighter'] as const) {
      const a = bed.venues.adapters[v]
      const { positions } = a
      restore.push(() => Object.assign(a, { positions }))
      a.positions = (...args) => {
        reads[v]++
        return positions.apply(a, args)
      }
    }
    // 6 reads a minute for 3 accounts: each at most every 30 s
    const aster = bed.venues.adapters.aster
    aster.accountReadsPerMinute = () => 6
    restore.push(() => {
      delete aster.accountReadsPerMinute
    })
    try {
      // 120 s of sweeps, from a snapshot read by the drain above
      for (let s = 0; s < 120; s++) {
        bed.clock.advance(1_000)
        await runMonitorSweep(bed.worker)
      }
    } finally {
      for (const undo of restore) undo()
    }
    // aster: 3 accounts, each read once its snapshot is 30 s old
    expect(reads.aster).toBeGreaterThanOrEqual(3 * 3)
    expect(reads.aster).toBeLessThanOrEqual(3 * 4)
    // lighter counts reads per account only: every 10 s
    expect(reads.lighter).toBeGreaterThanOrEqual(3 * 10)
    expect(reads.lighter).toBeLessThanOrEqual(3 * 12)
    for (const [i, o] of owners.entries()) await closeAll(o, [ids[i] ?? ''])
  })
})
