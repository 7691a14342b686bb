import type { DnClient } from '@dn/client'
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

const MASTER = Buffer.alloc(32, 13)
const BTC: Record<'hl' | 'aster' | 'lighter', string> = {
  hl: 'BTC',
  aster: 'BTCUSDT',
  lighter: 'BTC',
}
type Venue = keyof typeof BTC

/** The venue's own words for the refusal the fakes' engine makes. */
const REFUSAL: Record<Venue, RegExp> = {
  hl: /Insufficient margin to place order\./,
  aster: /Margin is insufficient\./,
  lighter: /canceled-margin-not-allowed|margin/i,
}

/**
 * A close every venue refuses, through the service as `dn up` runs it:
 * each venue on its real protocol against its fake, whose engine refuses
 * every order in the venue's words. The close ends after
 * CLOSE_REFUSALS_MAX refusals in a row, visibly, and the venues saw no
 * more orders than that (issue 32, must show (e)).
 */
describe.each(dialects())(
  'closes the venues refuse, on the real protocols (%s)',
  (dialect) => {
    let bed: ProtocolService
    let sim: SimVenues
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 101,
        masterKey: MASTER,
        config: FEE_CONFIG,
        workerId: `refusals-${dialect}`,
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
    const refusedBy = () =>
      Object.fromEntries(
        (Object.keys(BTC) as Venue[]).map((v) => [
          v,
          sim.exchanges[v].stats().rejected,
        ]),
      ) as Record<Venue, number>

    test(`a close each venue refuses stops after ${CLOSE_REFUSALS_MAX} refusals with the venue's words, the venues saw no more, and a close asked again once the cause is gone completes`, async () => {
      // two tasks over the three venues, each where funding lets it open
      const rates = await Promise.all(
        (Object.keys(BTC) as Venue[]).map(async (v) => ({
          v,
          rate: Number(
            (await bed.venues.marketData.quote(v as VenueId, BTC[v]))
              .fundingRateHourly,
          ),
        })),
      )
      const [low, mid, high] = rates
        .sort((a, b) => a.rate - b.rate)
        .map((r) => r.v) as [Venue, Venue, Venue]
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
        const [sa, sb] = [await stopped(a.taskId), await stopped(b.taskId)]
        for (const [t, legs] of [
          [sa, [low, mid]],
          [sb, [mid, high]],
        ] as const) {
          expect(t.status).toBe('closing')
          expect(t.error).toMatch(
            new RegExp(
              `^close stopped: the venue refused it ${CLOSE_REFUSALS_MAX} times in a row \\(`,
            ),
          )
          // the venue's words, as each venue says them
          expect(
            legs.some((v) => REFUSAL[v].test(t.error ?? '')),
            t.error ?? '',
          ).toBe(true)
        }
        // each task's close sent each leg CLOSE_REFUSALS_MAX times, no more
        // (mid holds a leg of both), and nothing follows for a while
        const seen = () => {
          const now = refusedBy()
          return {
            [low]: now[low] - before[low],
            [mid]: now[mid] - before[mid],
            [high]: now[high] - before[high],
          }
        }
        const expected = {
          [low]: CLOSE_REFUSALS_MAX,
          [mid]: 2 * CLOSE_REFUSALS_MAX,
          [high]: CLOSE_REFUSALS_MAX,
        }
        expect(seen()).toEqual(expected)
        await new Promise((r) => setTimeout(r, 3_000))
        expect(seen()).toEqual(expected)
        // the legs are still open at the venues, as the note says
        expect(net(low)).toBeGreaterThan(0)
        expect(net(high)).toBeLessThan(0)
      } finally {
        for (const v of [low, mid, high]) {
          sim.exchanges[v].setFaults({ rejectRate: 0 })
        }
      }
      // the cause gone, the owner asks again: both close, the venues flat
      for (const t of [a, b]) {
        await dn.closeTask(t.taskId)
        const closed = await dn.waitForTask(t.taskId, {
          intervalMs: 25,
          timeoutMs: 30_000,
          until: ['closed', 'failed'],
        })
        expect(closed, JSON.stringify(closed)).toMatchObject({
          status: 'closed',
          error: null,
        })
      }
      for (const v of [low, mid, high]) expect(net(v)).toBe(0)
    }, 120_000)
  },
)
