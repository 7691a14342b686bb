import type { DnClient, Position } from '@dn/client'
import { CLOSE_REFUSALS_MAX, type VenueId } from '@dn/core'
import type { SimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 11)
const BTC: Record<'hl' | 'aster' | 'lighter', string> = {
  hl: 'BTC',
  aster: 'BTCUSDT',
  lighter: 'BTC',
}
type Venue = keyof typeof BTC

/**
 * Two tasks of one owner whose legs meet, on opposite sides, on one venue
 * market, through the service as `dn up` runs it: every venue on its real
 * protocol against its fake (which refuses a reduce-only order that would
 * not reduce), a real worker loop and account snapshots. Their closes
 * also meet venues that refuse every order (the fakes' engines, in each
 * venue's words).
 */
describe.each(dialects())(
  'tasks sharing a venue market on the real protocols (%s)',
  (dialect) => {
    let bed: ProtocolService
    let sim: SimVenues
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 97,
        masterKey: MASTER,
        config: FEE_CONFIG,
        workerId: `shared-${dialect}`,
      })
      sim = bed.sim
      const lighter = sim.faucet('lighter', owner).accountIndex
      dn = await bed.bindAndKey(wallet, [
        { venue: 'hl' },
        { venue: 'aster' },
        { venue: 'lighter', accountIndex: lighter },
      ])
    }, 60_000)

    afterAll(() => bed?.close())

    const net = (v: Venue) =>
      Number(
        sim.exchanges[v].positions(owner).find((p) => p.market === BTC[v])
          ?.size ?? '0',
      )

    /**
     * The venues by funding rate, so two pairs both earn it and open: A
     * long the lowest, short the middle; B long the middle, short the
     * highest
     */
    const byFunding = async () => {
      const rates = await Promise.all(
        (Object.keys(BTC) as Venue[]).map(async (v) => ({
          v,
          rate: Number(
            (await bed.venues.marketData.quote(v as VenueId, BTC[v]))
              .fundingRateHourly,
          ),
        })),
      )
      return rates.sort((a, b) => a.rate - b.rate).map((r) => r.v) as [
        Venue,
        Venue,
        Venue,
      ]
    }
    const open = async (long: Venue, short: Venue, sizeUsd: number) => {
      const { taskId } = await dn.createTask({
        longVenue: long,
        longMarket: BTC[long],
        shortVenue: short,
        shortMarket: BTC[short],
        sizeUsd,
        autoClose: false,
      })
      return dn.waitForTask(taskId, { intervalMs: 25, timeoutMs: 30_000 })
    }
    const closeAll = async (ids: readonly string[]) => {
      for (const id of ids) {
        await dn.closeTask(id)
        const closed = await dn.waitForTask(id, {
          intervalMs: 25,
          timeoutMs: 30_000,
          until: ['closed', 'failed'],
        })
        expect(closed, JSON.stringify(closed)).toMatchObject({
          status: 'closed',
          error: null,
        })
      }
    }

    test('both stay running through monitor rounds, the position shows both holders, and both close cleanly', async () => {
      const [low, mid, high] = await byFunding()
      // B the larger: the shared market nets long, not flat
      const a = await open(low, mid, 1_000)
      const b = await open(mid, high, 1_500)
      expect([a.status, b.status]).toEqual(['running', 'running'])
      expect(net(mid)).toBeCloseTo(Number(b.longSize) - Number(a.shortSize), 9)

      // the account's snapshot names both legs as holders of `mid`
      let shared: Position | undefined
      for (let i = 0; i < 200 && !shared; i++) {
        const list = await dn.positions({ venue: mid })
        shared = list.accounts[0]?.positions.find(
          (p) =>
            p.market === BTC[mid] &&
            p.holders.filter((h) => h.kind === 'task_leg').length === 2,
        )
        if (!shared) await new Promise((r) => setTimeout(r, 50))
      }
      expect(shared?.holders).toEqual(
        expect.arrayContaining([
          {
            kind: 'task_leg',
            taskId: a.taskId,
            leg: 'short',
            sizeBase: `-${a.shortSize}`,
          },
          {
            kind: 'task_leg',
            taskId: b.taskId,
            leg: 'long',
            sizeBase: b.longSize,
          },
        ]),
      )

      // several monitor rounds (a sweep a second, positions 10 s old at most)
      await new Promise((r) => setTimeout(r, 12_000))
      for (const t of [a, b]) {
        expect(await dn.getTask(t.taskId)).toMatchObject({
          status: 'running',
          closeReason: null,
          error: null,
        })
      }
      await closeAll([a.taskId, b.taskId])
      for (const v of [low, mid, high]) expect(net(v)).toBe(0)
    }, 90_000)

    // the fakes' engines refuse every order in each venue's own words
    const REFUSAL: Record<Venue, RegExp> = {
      hl: /Insufficient margin to place order\./,
      aster: /Margin is insufficient\./,
      lighter: /margin/i,
    }
    const refusedBy = () =>
      Object.fromEntries(
        (Object.keys(BTC) as Venue[]).map((v) => [
          v,
          sim.exchanges[v].stats().rejected,
        ]),
      ) as Record<Venue, number>

    test(`a close each venue refuses stops after ${CLOSE_REFUSALS_MAX} refusals with the venue's words, the venues saw no more, and a close asked again once the cause is gone completes (issue 32)`, async () => {
      const [low, mid, high] = await byFunding()
      const a = await open(low, mid, 1_000)
      const b = await open(mid, high, 1_500)
      expect([a.status, b.status]).toEqual(['running', 'running'])
      const before = refusedBy()
      for (const v of [low, mid, high]) {
        sim.exchanges[v].setFaults({ rejectRate: 1 })
      }
      try {
        for (const t of [a, b]) await dn.closeTask(t.taskId)
        // 1 + 2 + 4 + 8 s between the refused closes, then none
        const stopped = async (id: string) => {
          for (let i = 0; i < 300; i++) {
            const t = await dn.getTask(id)
            if (t.error?.startsWith('close stopped')) return t
            await new Promise((r) => setTimeout(r, 100))
          }
          return dn.getTask(id)
        }
        for (const [id, legs] of [
          [a.taskId, [low, mid]],
          [b.taskId, [mid, high]],
        ] as const) {
          const t = await stopped(id)
          expect(t.status).toBe('closing')
          expect(t.error).toMatch(
            new RegExp(
              `^close stopped: the venue refused it ${CLOSE_REFUSALS_MAX} times in a row \\(`,
            ),
          )
          expect(
            legs.some((v) => REFUSAL[v].test(t.error ?? '')),
            t.error ?? '',
          ).toBe(true)
        }
        // each close sent each of its legs CLOSE_REFUSALS_MAX times, no
        // more (mid holds a leg of both), and nothing follows
        const seen = () => {
          const now = refusedBy()
          return [low, mid, high].map((v) => now[v] - before[v])
        }
        const expected = [1, 2, 1].map((n) => n * CLOSE_REFUSALS_MAX)
        expect(seen()).toEqual(expected)
        await new Promise((r) => setTimeout(r, 3_000))
        expect(seen()).toEqual(expected)
        // what is still open stays open at the venues, as the note says
        expect(net(low)).toBeGreaterThan(0)
        expect(net(high)).toBeLessThan(0)
      } finally {
        for (const v of [low, mid, high]) {
          sim.exchanges[v].setFaults({ rejectRate: 0 })
        }
      }
      // the cause gone, the owner asks again: both close, the venues flat
      await closeAll([a.taskId, b.taskId])
      for (const v of [low, mid, high]) expect(net(v)).toBe(0)
    }, 120_000)
  },
)
