import { composeVenues, composeWorkerDeps, deriveKey } from '@dn/cli'
import { createDnClient, type DnClient } from '@dn/client'
import {
  type BindingConfig,
  createAdapterOrderLookup,
  createAesGcmSecrets,
  type RunningWorker,
  startWorker,
  type VenueId,
} from '@dn/core'
import {
  createSimVenues,
  lighterClientOrderIndex,
  type SimVenues,
} from '@dn/venues'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'

const MASTER = Buffer.alloc(32, 5)
const config: BindingConfig = {
  feeApproval: true,
  builderAddress: `0x${'0b'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

/** Each venue under test, a market on it, and the other leg of a task. */
const CASES = [
  {
    venue: 'lighter',
    market: 'ETH',
    size: 0.01,
    other: 'hl',
    otherMarket: 'ETH',
  },
  {
    venue: 'lighter-mainnet',
    market: 'SOL',
    size: 0.2,
    other: 'aster',
    otherMarket: 'SOLUSDT',
  },
  {
    venue: 'aster',
    market: 'ETHUSDT',
    size: 0.01,
    other: 'lighter',
    otherMarket: 'ETH',
  },
] as const

/**
 * Lighter (both deployments) and Aster through the service as `dn up`
 * runs them: every venue on its real protocol against its
 * signature-checking fake, a real worker loop, one wallet binding all four
 * venues by signature (Lighter with the faucet's account index), then
 * direct orders and paired tasks with a leg on each venue.
 */
describe.each(dialects())(
  'Lighter and Aster on their real protocols through the service (%s)',
  (dialect) => {
    let sim: SimVenues
    let venues: Awaited<ReturnType<typeof composeVenues>>
    let svc: TestService
    let worker: RunningWorker
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    const index: Partial<Record<VenueId, number>> = {}

    beforeAll(async () => {
      sim = createSimVenues({ seed: 61 })
      venues = await composeVenues(
        sim,
        {},
        { hlMainnet: true, asterTestnet: false, config },
      )
      const secrets = createAesGcmSecrets(
        deriveKey(MASTER, 'venue-credentials'),
      )
      svc = await startTestService({
        dialect,
        // the client polls every 25 ms: keep the 120/min budget out of it
        rateLimit: 100_000,
        markets: venues.marketData,
        binding: { binders: venues.binders, secrets, config },
        venueOrders: {
          isLive: (order) =>
            createAdapterOrderLookup({
              repos: svc.store,
              secrets,
              adapters: venues.adapters,
            }).isLive(order),
        },
      })
      worker = startWorker(
        composeWorkerDeps({
          store: svc.store,
          adapters: venues.adapters,
          binders: venues.binders,
          masterKey: MASTER,
          workerId: `protocols-${dialect}`,
          logger: { info: () => {}, error: () => {} },
        }),
        { idleMs: 25 },
      )
      for (const v of ['hl', 'lighter', 'lighter-mainnet', 'aster'] as const)
        index[v] = sim.faucet(v, owner).accountIndex
      const anon = createDnClient({ baseUrl: svc.url })
      const batch = await anon.bindVenues(
        wallet,
        [
          { venue: 'hl' },
          { venue: 'lighter', accountIndex: index.lighter as number },
          {
            venue: 'lighter-mainnet',
            accountIndex: index['lighter-mainnet'] as number,
          },
          { venue: 'aster' },
        ],
        { intervalMs: 25, timeoutMs: 30_000 },
      )
      expect(batch.results.map((r) => `${r.venue}:${r.status}`)).toEqual([
        'hl:bound',
        'lighter:bound',
        'lighter-mainnet:bound',
        'aster:bound',
      ])
      const key = await anon.createApiKey(wallet, {
        venues: ['hl', 'lighter', 'lighter-mainnet', 'aster'],
        maxSizeUsd: 20_000,
      })
      dn = createDnClient({ baseUrl: svc.url, apiKey: key.apiKey })
    }, 60_000)

    afterAll(async () => {
      await worker?.stop()
      await svc?.close()
      await venues?.close()
    })

    /** the engine's record of a service order (Lighter keys it by index) */
    const engineOrders = (venue: VenueId, clientOrderId: string) => {
      const id = venue.startsWith('lighter')
        ? `lighter:${index[venue]}:${lighterClientOrderIndex(clientOrderId)}`
        : clientOrderId
      return sim.exchanges[venue].stats().byClientOrderId.get(id) ?? 0
    }

    const wait = (id: string, until: string[]) =>
      dn.waitForOrder(id, { intervalMs: 25, timeoutMs: 20_000, until })

    describe.each(CASES)('$venue', (c) => {
      test('a market order is signed with the bound credential and fills at the venue', async () => {
        const { orderId } = await dn.createOrder({
          venue: c.venue,
          market: c.market,
          side: 'long',
          orderType: 'market',
          sizeBase: c.size,
        })
        const order = await wait(orderId, [
          'filled',
          'rejected',
          'cancelled',
          'unknown',
        ])
        expect(order).toMatchObject({
          status: 'filled',
          filledBase: String(c.size),
        })
        expect(Number(order.averagePrice)).toBeGreaterThan(0)
        expect(engineOrders(c.venue, order.clientOrderId)).toBe(1)
      })

      test('a resting order is cancelled at the venue', async () => {
        const mark = Number(
          (await venues.marketData.quote(c.venue, c.market)).mark,
        )
        const { orderId } = await dn.createOrder({
          venue: c.venue,
          market: c.market,
          side: 'long',
          orderType: 'limit',
          sizeBase: c.size,
          limitPrice: Math.floor(mark * 0.9),
        })
        expect((await wait(orderId, ['open', 'rejected'])).status).toBe('open')
        expect((await dn.cancelOrder(orderId)).status).toBe('cancel_queued')
        const done = await wait(orderId, ['cancelled'])
        expect(done.status).toBe('cancelled')
        const engineId = c.venue.startsWith('lighter')
          ? `lighter:${index[c.venue]}:${lighterClientOrderIndex(done.clientOrderId)}`
          : done.clientOrderId
        expect(sim.exchanges[c.venue].order(owner, engineId)?.state).toBe(
          'cancelled',
        )
      })

      test('an answer lost after the venue accepted: unknown, reconciled, one venue order', async () => {
        sim.exchanges[c.venue].setFaults({ timeoutAfterAcceptRate: 1 })
        let order: Awaited<ReturnType<typeof wait>>
        try {
          const { orderId } = await dn.createOrder({
            venue: c.venue,
            market: c.market,
            side: 'short',
            orderType: 'market',
            sizeBase: c.size,
          })
          order = await wait(orderId, ['unknown', 'filled', 'rejected'])
        } finally {
          sim.exchanges[c.venue].setFaults({})
        }
        expect(order.status).toBe('unknown')
        const settled = await wait(order.orderId, ['filled', 'rejected'])
        expect(settled.status).toBe('filled')
        expect(engineOrders(c.venue, settled.clientOrderId)).toBe(1)
      })

      test(`a paired task with a ${c.venue} leg opens and closes`, async () => {
        const { taskId } = await dn.createTask({
          longVenue: c.venue,
          shortVenue: c.other,
          longMarket: c.market,
          shortMarket: c.otherMarket,
          sizeUsd: 1_000,
          autoClose: false,
        })
        const running = await dn.waitForTask(taskId, {
          intervalMs: 25,
          timeoutMs: 20_000,
        })
        expect(running.status).toBe('running')
        expect(running.longSize).toBe(running.shortSize)
        // both legs are held at the venues
        for (const [v, m] of [
          [c.venue, c.market],
          [c.other, c.otherMarket],
        ] as const) {
          expect(
            sim.exchanges[v].positions(owner).some((p) => p.market === m),
          ).toBe(true)
        }
        await dn.closeTask(taskId)
        const closed = await dn.waitForTask(taskId, {
          intervalMs: 25,
          timeoutMs: 20_000,
          until: ['closed', 'failed'],
        })
        expect(closed.status).toBe('closed')
      })
    })
  },
)
