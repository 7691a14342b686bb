import type { DnClient, Task } from '@dn/client'
import { type VenueAdapter, VenueUnavailableError } from '@dn/core'
import type { SimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 8)
/** the fakes settle funding every 2 s: a task sees several settlements */
const FUNDING_INTERVAL_MS = 2_000
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Issue 31 (5): a task whose funding cannot be read at its close (Aster's
 * income read down, as a fault once dropped `/fapi/v3/income`) still
 * closes, shows that its funding is still settling, and books it once the
 * venue answers again: its `fundingUsd` then is what the venues paid.
 * The service as `dn up` runs it: real protocols against the fakes, the
 * HTTP API and a worker loop on real time.
 */
describe.each(dialects())(
  'funding a close could not read is booked later (%s)',
  (dialect) => {
    let bed: ProtocolService
    let sim: SimVenues
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    /** while set, the worker's Aster funding reads fail */
    const income = { down: false, failed: 0 }

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 83,
        masterKey: MASTER,
        config: FEE_CONFIG,
        workerId: `settling-${dialect}`,
        fundingIntervalMs: FUNDING_INTERVAL_MS,
        workerAdapters: (v) => ({ aster: failingFunding(v.adapters.aster) }),
      })
      sim = bed.sim
      const lighter = sim.faucet('lighter', owner).accountIndex
      dn = await bed.bindAndKey(wallet, [
        { venue: 'aster' },
        { venue: 'lighter', accountIndex: lighter },
      ])
    }, 60_000)

    afterAll(() => bed?.close())

    /** the Aster adapter, its funding read answering 503 while down */
    function failingFunding(aster: VenueAdapter): VenueAdapter {
      return {
        ...aster,
        funding(...args) {
          if (!income.down) return aster.funding(...args)
          income.failed++
          return Promise.reject(
            new VenueUnavailableError('aster GET /fapi/v3/income: HTTP 503'),
          )
        },
      }
    }

    const get = (id: string) => dn.getTask(id)

    test('the task closes with its funding settling, then books what the venues paid', async () => {
      const since = new Date().toISOString()
      const { taskId } = await dn.createTask({
        longVenue: 'aster',
        longMarket: 'ETHUSDT',
        shortVenue: 'lighter',
        shortMarket: 'ETH',
        sizeUsd: 1_000,
        autoClose: false,
      })
      const running = await dn.waitForTask(taskId, {
        intervalMs: 25,
        timeoutMs: 20_000,
      })
      expect(running.status).toBe('running')
      expect(running.settling).toBe(false)
      // a few settlements on both legs
      await sleep(3 * FUNDING_INTERVAL_MS)

      income.down = true
      await dn.closeTask(taskId)
      const closed = await dn.waitForTask(taskId, {
        intervalMs: 25,
        timeoutMs: 20_000,
        until: ['closed', 'failed'],
      })
      expect(closed).toMatchObject({
        status: 'closed',
        longSize: '0',
        shortSize: '0',
        error: null,
        settling: true,
      })
      // the close's read was the one that failed
      expect(income.failed).toBeGreaterThan(0)
      // no position is left to be paid on
      for (const v of ['aster', 'lighter'] as const) {
        expect(
          sim.exchanges[v].positions(owner).filter((p) => Number(p.size) !== 0),
        ).toEqual([])
      }

      income.down = false
      let settled: Task = closed
      const until = Date.now() + 40_000
      while (settled.settling && Date.now() < until) {
        await sleep(250)
        settled = await get(taskId)
      }
      expect(settled).toMatchObject({ status: 'closed', settling: false })
      // what the venues' own records say they paid this owner on the two
      // markets (its only positions there were the task's legs)
      const paid = [
        ...sim.exchanges.aster.funding(owner, 'ETHUSDT', since),
        ...sim.exchanges.lighter.funding(owner, 'ETH', since),
      ]
      expect(paid.filter((p) => p.market === 'ETHUSDT').length).toBeGreaterThan(
        0,
      )
      expect(paid.filter((p) => p.market === 'ETH').length).toBeGreaterThan(0)
      const expected = paid.reduce((s, p) => s + Number(p.amountUsd), 0)
      expect(expected).not.toBe(0)
      expect(Number(settled.fundingUsd)).toBeCloseTo(expected, 6)
      // the settlements since the last booked one came in after the close
      expect(Number(closed.fundingUsd)).not.toBeCloseTo(expected, 6)
      expect(settled.pnl.fundingUsd).toBe(settled.fundingUsd)
    }, 90_000)
  },
)
