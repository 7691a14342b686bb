import { randomUUID } from 'node:crypto'
import type { DnClient } from '@dn/client'
import type { TaskRecord } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { task } from '../packages/core/src/ports/store.contract.js'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 9)
// Binding looks each Hyperliquid account up with userRole (weight 60):
// a handful of owners a minute fit the budget
const OWNERS = 5
const TASKS_PER_OWNER = 200
const BURST = 200
const HOUR = 3_600_000

/**
 * The request budget under load, against the protocol fakes enforcing
 * Hyperliquid's and Aster's published per-IP limits: while the worker
 * monitors 1,000 running tasks, a burst of 200 orders and a
 * liquidation-protection close all go through, and no venue refuses a
 * request. The tasks are written as running over positions opened at the
 * engine (opening 1,000 through the venues would spend many minutes of
 * their budgets); their monitoring, the orders and the close all go over
 * the venues' real protocols.
 */
describe.each(dialects())('the request budget under load (%s)', (dialect) => {
  let bed: ProtocolService
  const errors: string[] = []
  const clients: DnClient[] = []
  const owners: string[] = []
  const tasks: TaskRecord[] = []
  let guarded: TaskRecord

  beforeAll(async () => {
    bed = await startProtocolService({
      dialect,
      seed: 83,
      masterKey: MASTER,
      config: FEE_CONFIG,
      workerId: `load-${dialect}`,
      logger: {
        info: () => {},
        error: (msg, fields) => errors.push(`${msg} ${JSON.stringify(fields)}`),
      },
    })
    for (let i = 0; i < OWNERS; i++) {
      const wallet = privateKeyToAccount(generatePrivateKey())
      owners.push(wallet.address.toLowerCase())
      clients.push(
        await bed.bindAndKey(wallet, [{ venue: 'hl' }, { venue: 'aster' }]),
      )
    }
    const { sim, svc } = bed
    // the guarded owner's short leg is isolated at 20x: its liquidation
    // sits about 5 % from entry
    const guardedOwner = owners[0] as string
    sim.exchanges.aster.setLeverage(guardedOwner, 'BTCUSDT', 20, 'isolated')
    const now = Date.now()
    const at = new Date(now).toISOString()
    const legSize = '0.001'
    const total = (0.001 * TASKS_PER_OWNER).toFixed(3)
    for (const owner of owners) {
      for (const [venue, market, side] of [
        ['hl', 'BTC', 'long'],
        ['aster', 'BTCUSDT', 'short'],
      ] as const) {
        const mark = Number(sim.exchanges[venue].quote(market).mark)
        const placed = sim.exchanges[venue].place(owner, {
          market,
          side,
          size: total,
          price: String(
            Math.round(side === 'long' ? mark * 1.05 : mark * 0.95),
          ),
          timeInForce: 'ioc',
          reduceOnly: false,
          clientOrderId: `0x${randomUUID().replaceAll('-', '')}`,
        })
        expect(placed.state).toBe('filled')
      }
      for (let i = 0; i < TASKS_PER_OWNER; i++) {
        const t = task({
          owner,
          longVenue: 'hl',
          shortVenue: 'aster',
          longMarket: 'BTC',
          shortMarket: 'BTCUSDT',
          sizeUsd: '100',
          minFundingApy: '0',
          autoClose: false,
          status: 'running',
          longSize: legSize,
          shortSize: legSize,
          // opened: no operation in flight, funding next due in an hour
          engineState: {
            op: null,
            seq: 1,
            fundingSince: at,
            fundingBelowSince: null,
            fundingCheckAt: new Date(now + HOUR).toISOString(),
          },
          nextCheckAt: new Date(now + HOUR).toISOString(),
          createdAt: at,
          updatedAt: at,
        })
        tasks.push(t)
      }
    }
    // the guarded task: 3 % protection, its short leg's liquidation about
    // 5 % away: near the threshold, not over it
    tasks[0] = { ...(tasks[0] as TaskRecord), liqProtectionPct: '3' }
    for (const t of tasks) await svc.store.tasks.insert(t)
    guarded = tasks[0] as TaskRecord
  }, 120_000)

  afterAll(() => bed?.close())

  /** every bucket's refusals at the fakes, by venue and limit */
  const refusals = () =>
    Object.entries(bed.venues.rateLimitUsage()).flatMap(([venue, buckets]) =>
      (buckets ?? [])
        .filter((b) => b.refused > 0)
        .map((b) => `${venue} ${b.limit} ${b.subject}: ${b.refused}`),
    )

  test('1,000 monitored tasks, a burst of 200 orders and a protection close: all go through, nothing refused', async () => {
    const { store } = bed.svc
    // the sweep shows every task its prices
    const shown = async () => {
      let n = 0
      for (const t of tasks) {
        if ((await store.tasks.get(t.id))?.longPrice != null) n++
      }
      return n
    }
    const deadline = Date.now() + 30_000
    while ((await shown()) < tasks.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500))
    }
    expect(await shown()).toBe(tasks.length)

    const near = await store.tasks.get(guarded.id)
    expect(near?.engineState?.nearThreshold).toBe(true)
    expect(near?.status).toBe('running')
    // the burst, from the other owners, on both per-IP budgets
    const creating = Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        (clients[1 + (i % (OWNERS - 1))] as DnClient).createOrder({
          venue: i % 2 === 0 ? 'hl' : 'aster',
          market: i % 2 === 0 ? 'ETH' : 'ETHUSDT',
          side: i % 4 < 2 ? 'long' : 'short',
          orderType: 'market',
          sizeBase: 0.01,
        }),
      ),
    )
    // meanwhile the mark climbs 3.5 %: the guarded short's liquidation
    // comes within 3 %
    const aster = bed.sim.exchanges.aster
    const mark = Number(aster.quote('BTCUSDT').mark)
    aster.setMark('BTCUSDT', (mark * 1.035).toFixed(1))
    const moved = Date.now()
    const ids = await creating
    const final = await Promise.all(
      ids.map(({ orderId }, i) =>
        (clients[1 + (i % (OWNERS - 1))] as DnClient).waitForOrder(orderId, {
          intervalMs: 250,
          timeoutMs: 90_000,
          until: ['filled', 'rejected', 'cancelled', 'expired', 'unknown'],
        }),
      ),
    )
    const statuses: Record<string, number> = {}
    for (const o of final) statuses[o.status] = (statuses[o.status] ?? 0) + 1
    expect(statuses).toEqual({ filled: BURST })
    // bounded well inside the minute the binding's weight (5 userRole
    // lookups) holds Hyperliquid's budget: the close must not wait for it
    let closed: TaskRecord | undefined
    while (Date.now() < moved + 30_000) {
      closed = await store.tasks.get(guarded.id)
      if (closed?.status === 'closed') break
      await new Promise((r) => setTimeout(r, 100))
    }
    aster.setMark('BTCUSDT', null)
    expect(closed).toMatchObject({
      status: 'closed',
      closeReason: 'liquidation_protection',
      longSize: '0',
      shortSize: '0',
    })
    // the monitoring went on: every other task is still running, and
    // shows at most that a read waits for the venue's budget
    const others = await Promise.all(
      tasks.slice(1).map((t) => store.tasks.get(t.id)),
    )
    expect(others.filter((t) => t?.status !== 'running')).toEqual([])
    const notes = others.flatMap((t) => (t?.error ? [t.error] : []))
    for (const note of notes) {
      expect(note).toMatch(/^waiting for the venue's request budget/)
    }
    expect(refusals()).toEqual([])
    expect(errors).toEqual([])
  }, 180_000)
})
