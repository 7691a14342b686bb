import { describe, expect, test } from 'vitest'
import type { VenueId } from '../domain/venue.js'
import { RequestBudgetError } from '../errors/venue.js'
import type {
  ReadOptions,
  VenueAdapter,
  VenueCredential,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { createAccountSnapshots } from './accountSnapshots.js'
import { FIXTURE_OWNER, memoryWorker } from './memoryVenue.fixture.js'
import type { WorkerDeps } from './workerDeps.js'

const REFRESH = 60_000

/** A venue answering positions and balances, every call recorded. */
function accountVenue(venue: VenueId, clock: { now(): number }) {
  const state = {
    positions: [] as VenuePosition[],
    refuse: false,
    calls: [] as string[],
    /** when the balance served was read: undefined, read now (a request) */
    balanceAt: undefined as number | undefined,
  }
  const adapter = {
    venue,
    async positions(_cred: VenueCredential, read?: ReadOptions) {
      state.calls.push(`positions ${read?.priority}`)
      if (state.refuse) throw new RequestBudgetError('no budget')
      return state.positions
    },
    async balances(_cred: VenueCredential, read?: ReadOptions) {
      state.calls.push(`balances ${read?.priority} ${read?.maxAgeMs}`)
      return {
        equityUsd: '1000',
        availableUsd: '900',
        marginUsedUsd: '100',
        at: state.balanceAt ?? clock.now(),
      }
    },
    accountReadsPerMinute: () => 218,
  } as unknown as VenueAdapter
  return { adapter, state }
}

async function bed() {
  const w = await memoryWorker(['hl'])
  const hl = accountVenue('hl', w.clock)
  const deps: WorkerDeps = {
    ...w.deps,
    adapters: { ...w.deps.adapters, hl: hl.adapter },
  }
  await w.store.workers.heartbeat({
    id: deps.workerId,
    startedAt: new Date(w.clock.ms).toISOString(),
    heartbeatAt: new Date(w.clock.ms).toISOString(),
    fencedAt: null,
    host: null,
    pid: null,
  })
  const snapshots = createAccountSnapshots(deps, { refreshMs: REFRESH })
  const stored = async () =>
    (await w.store.accountSnapshots.listByOwner(FIXTURE_OWNER, ['hl']))[0]
      ?.snapshot ?? null
  const cred: VenueCredential = {
    owner: FIXTURE_OWNER,
    venue: 'hl',
    accountIndex: null,
    credentialRef: null,
    secret: null,
  }
  return { ...w, hl, snapshots, stored, cred }
}

const eth = (size: string, mark = '3000'): VenuePosition => ({
  market: 'ETH',
  size,
  entryPrice: '3000',
  markPrice: mark,
  leverage: '3',
  marginMode: 'cross',
  liquidationPrice: null,
})

describe('account snapshots', () => {
  test('an idle bound account is read behind routine reads, written, and read again a refresh period later', async () => {
    const b = await bed()
    b.hl.state.positions = [eth('0.5')]
    expect(await b.snapshots.tick()).toEqual({ read: 1, written: 1 })
    expect(b.hl.state.calls).toEqual([
      'positions history',
      `balances history ${REFRESH}`,
    ])
    expect(await b.stored()).toEqual({
      owner: FIXTURE_OWNER,
      venue: 'hl',
      accountIndex: null,
      positions: [eth('0.5')],
      readAt: new Date(b.clock.ms).toISOString(),
      balance: { equityUsd: '1000', availableUsd: '900', marginUsedUsd: '100' },
      balanceReadAt: new Date(b.clock.ms).toISOString(),
    })
    // not again within the period
    b.clock.ms += REFRESH / 2
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 0 })
    // the period (and its spread) later: read and written again
    b.clock.ms += REFRESH
    expect(await b.snapshots.tick()).toEqual({ read: 1, written: 1 })
    expect((await b.stored())?.readAt).toBe(new Date(b.clock.ms).toISOString())
    await b.store.close()
  })

  test('refreshNow: read at urgent priority and written at once, the stored balance kept; a read that does not come within 2 s is left to the periodic one', async () => {
    const b = await bed()
    b.hl.state.positions = [eth('0.5')]
    await b.snapshots.tick()
    const balance = (await b.stored())?.balance
    // our own order moved the position: shown before the next tick
    b.clock.ms += 1_000
    b.hl.state.positions = []
    b.hl.state.calls.length = 0
    await b.snapshots.refreshNow([{ owner: FIXTURE_OWNER, venue: 'hl' }])
    expect(b.hl.state.calls).toEqual(['positions urgent'])
    expect(await b.stored()).toMatchObject({
      positions: [],
      readAt: new Date(b.clock.ms).toISOString(),
      balance,
    })
    // a read the venue's budget holds back does not hold the caller
    b.hl.adapter.positions = () => new Promise(() => {})
    const started = Date.now()
    await b.snapshots.refreshNow([{ owner: FIXTURE_OWNER, venue: 'hl' }])
    expect(Date.now() - started).toBeLessThan(3_000)
    expect((await b.stored())?.positions).toEqual([])
    await b.store.close()
  })

  test("the sweep's reads: written on a change or half a period on, and the account is not read idle", async () => {
    const b = await bed()
    const seen = (positions: VenuePosition[]) =>
      b.snapshots.observe({
        owner: FIXTURE_OWNER,
        venue: 'hl',
        cred: b.cred,
        positions,
        readAt: b.clock.ms,
      })
    seen([eth('1')])
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 1 })
    // the sweep reads every 10 s: marks moved, nothing else
    for (let i = 0; i < 2; i++) {
      b.clock.ms += 10_000
      seen([eth('1', '3100')])
      expect(await b.snapshots.tick()).toEqual({ read: 0, written: 0 })
    }
    // a fill: written at once
    b.clock.ms += 1_000
    seen([eth('2', '3100')])
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 1 })
    expect((await b.stored())?.positions).toEqual([eth('2', '3100')])
    // marks only, half a period on: written, so the stored age stays short
    b.clock.ms += REFRESH / 2
    seen([eth('2', '3200')])
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 1 })
    expect((await b.stored())?.positions).toEqual([eth('2', '3200')])
    expect(b.hl.state.calls.filter((c) => c.startsWith('positions'))).toEqual(
      [],
    )
    await b.store.close()
  })

  test('an idle read the budget refuses writes nothing and is tried a period later', async () => {
    const b = await bed()
    b.hl.state.refuse = true
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 0 })
    expect(await b.stored()).toBeNull()
    b.clock.ms += 5_000
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 0 })
    expect(b.hl.state.calls).toEqual(['positions history'])
    b.hl.state.refuse = false
    b.clock.ms += REFRESH * 1.1
    expect(await b.snapshots.tick()).toEqual({ read: 1, written: 1 })
    await b.store.close()
  })

  test('balances that take a request of their own keep to the tick allowance; those a positions read carried do not', async () => {
    const b = await bed()
    // no idle account here: only the sweep's reads
    const bound = await b.store.bindings.get(FIXTURE_OWNER, 'hl')
    if (bound) await b.store.bindings.upsert({ ...bound, status: 'revoked' })
    const observeAll = () => {
      for (const owner of ['0x01', '0x02', '0x03']) {
        b.snapshots.observe({
          owner,
          venue: 'hl',
          cred: { ...b.cred, owner },
          positions: [eth(owner === '0x01' ? '1' : '2')],
          readAt: b.clock.ms,
        })
      }
    }
    // each balance a read of its own (Aster): one a tick at 218 reads/min
    observeAll()
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 3 })
    const asked = () => b.hl.state.calls.filter((c) => c.startsWith('balances'))
    expect(asked()).toHaveLength(1)
    // served from the positions read (Hyperliquid, Lighter): all of them
    b.hl.state.calls.length = 0
    b.hl.state.balanceAt = b.clock.ms - 1
    b.clock.ms += REFRESH
    observeAll()
    expect(await b.snapshots.tick()).toEqual({ read: 0, written: 3 })
    expect(asked()).toHaveLength(3)
    await b.store.close()
  })
})
