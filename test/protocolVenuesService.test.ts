import { randomUUID } from 'node:crypto'
import {
  type ComposedVenues,
  composeProtocolVenues,
  composeVenues,
  composeWorkerDeps,
  deriveKey,
  protocolVenueOptions,
} from '@dn/cli'
import {
  createDnClient,
  type DnApiError,
  type DnClient,
  type PerpOrderStatus,
} from '@dn/client'
import {
  createAesGcmSecrets,
  resolveCredential,
  startWorker,
  type VenueId,
} from '@dn/core'
import { createDnMetrics } from '@dn/server'
import { createLighterAdapter, lighterClientOrderIndex } from '@dn/venues'
import type { SimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import {
  call,
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'
import { newNonce, signWalletMessage } from './support/wallet.js'

const MASTER = Buffer.alloc(32, 5)
const config = FEE_CONFIG

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
    let bed: ProtocolService
    let sim: SimVenues
    let venues: ComposedVenues
    let svc: TestService
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    const owner = wallet.address.toLowerCase()
    const index: Partial<Record<VenueId, number>> = {}
    const metrics = createDnMetrics()
    /** the venue's answers of `status` to `endpoint` calls so far */
    const venueAnswers = async (
      venue: VenueId,
      endpoint: string,
      status: string,
    ) => {
      const counter = metrics.registry.getSingleMetric(
        'dn_venue_requests_total',
      )
      const { values } = (await counter?.get()) ?? { values: [] }
      return values
        .filter(
          (v) =>
            v.labels.venue === venue &&
            String(v.labels.endpoint).endsWith(endpoint) &&
            String(v.labels.status) === status,
        )
        .reduce((sum, v) => sum + v.value, 0)
    }

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 61,
        masterKey: MASTER,
        config,
        workerId: `protocols-${dialect}`,
        metrics,
      })
      ;({ sim, venues, svc } = bed)
      for (const v of ['lighter', 'lighter-mainnet'] as const)
        index[v] = sim.faucet(v, owner).accountIndex
      dn = await bed.bindAndKey(wallet, [
        { venue: 'hl' },
        { venue: 'lighter', accountIndex: index.lighter as number },
        {
          venue: 'lighter-mainnet',
          accountIndex: index['lighter-mainnet'] as number,
        },
        { venue: 'aster' },
      ])
    }, 60_000)

    afterAll(() => bed?.close())

    /** the engine's record of a service order (Lighter keys it by index) */
    const engineOrders = (venue: VenueId, clientOrderId: string) => {
      const id = venue.startsWith('lighter')
        ? `lighter:${index[venue]}:${lighterClientOrderIndex(clientOrderId)}`
        : clientOrderId
      return sim.exchanges[venue].stats().byClientOrderId.get(id) ?? 0
    }

    const wait = (id: string, until: PerpOrderStatus[]) =>
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

      test(`a paired task with a ${c.venue} leg opens and closes, its venue fees read from each venue`, async () => {
        const since = {
          long: sim.exchanges[c.venue].now(),
          short: sim.exchanges[c.other].now(),
        }
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
        // each leg's venue fees: what its venue charged the task's fills
        // (Hyperliquid's fill history, Aster's userTrades, and nothing on
        // a standard Lighter account)
        for (const [leg, v, m] of [
          ['long', c.venue, c.market],
          ['short', c.other, c.otherMarket],
        ] as const) {
          const fills = sim.exchanges[v]
            .fills(owner, since[leg])
            .filter((f) => f.market === m)
          expect(fills.length).toBeGreaterThanOrEqual(2)
          const charged = fills.reduce((sum, f) => sum + Number(f.fee), 0)
          expect(charged > 0).toBe(!v.startsWith('lighter'))
          expect(Number(closed.pnl[leg].feesUsd), `${leg} on ${v}`).toBeCloseTo(
            charged,
            6,
          )
        }
      })
    })

    describe('Lighter refusals surface as the contract says', () => {
      test('a wallet naming an account index it does not own: 403 account_not_owned; an unknown index: 422 venue_account_not_found', async () => {
        const stranger = privateKeyToAccount(generatePrivateKey())
        sim.faucet('lighter', stranger.address.toLowerCase())
        const anon = createDnClient({ baseUrl: svc.url })
        const bind = (accountIndex: number) =>
          anon
            .bindVenues(stranger, [{ venue: 'lighter', accountIndex }], {
              intervalMs: 25,
              timeoutMs: 5_000,
            })
            .then(
              () => null,
              (e: DnApiError) => [e.status, e.code],
            )
        // the venue's accountsByL1Address says whose index this is
        expect(await bind(index.lighter as number)).toEqual([
          403,
          'account_not_owned',
        ])
        expect(await bind(999_999)).toEqual([422, 'venue_account_not_found'])
      })

      test('a Lighter registration signed by another wallet: 403 signature_mismatch, nothing registered', async () => {
        const w = privateKeyToAccount(generatePrivateKey())
        const who = w.address.toLowerCase()
        const { accountIndex } = sim.faucet('lighter', who)
        const targets = [{ venue: 'lighter', accountIndex }]
        const nonce = newNonce()
        const expiresAt = Math.floor(Date.now() / 1000) + 120
        const prepared = await call(svc, 'POST', '/v1/venue-bindings/prepare', {
          body: {
            owner: who,
            venues: targets,
            authorization: {
              nonce,
              expiresAt,
              signature: await signWalletMessage(w, 'prepare', {
                owner: who,
                venues: targets,
                nonce,
                expiresAt,
              }),
            },
          },
          idem: null,
        })
        expect(prepared.status, prepared.text).toBe(200)
        const intruder = privateKeyToAccount(generatePrivateKey())
        const requests = prepared.body.signRequests as {
          requestId: string
          payload: { message: string }
        }[]
        const signatures = await Promise.all(
          requests.map(async (r) => ({
            requestId: r.requestId,
            signature: await intruder.signMessage({
              message: r.payload.message,
            }),
          })),
        )
        const res = await call(
          svc,
          'POST',
          `/v1/venue-bindings/${prepared.body.bindingId}/submit`,
          { body: { signatures }, idem: randomUUID() },
        )
        expect(res.status).toBe(403)
        expect(res.body).toEqual({
          code: 'signature_mismatch',
          error: expect.any(String),
        })
        expect(await lighterKeys(accountIndex)).toEqual([])
      })

      test('a nonce another process used first: refused by the venue, resynchronized, the order fills once', async () => {
        const secrets = createAesGcmSecrets(
          deriveKey(MASTER, 'venue-credentials'),
        )
        const cred = await resolveCredential(
          svc.store,
          secrets,
          owner,
          'lighter',
        )
        const mark = Number(
          (await venues.marketData.quote('lighter', 'ETH')).mark,
        )
        const ioc = (clientOrderId: string) => ({
          market: 'ETH',
          side: 'long' as const,
          size: '0.01',
          price: (Math.ceil(mark * 101) / 100).toFixed(2),
          timeInForce: 'ioc' as const,
          reduceOnly: false,
          clientOrderId,
        })
        // another worker process on the same API key, with its own count
        const other = createLighterAdapter({
          venue: 'lighter',
          baseUrl: venues.protocolUrls.lighter as string,
          tier: 'builder',
        })
        const stray = `0x${'ab'.repeat(16)}`
        expect((await other.place(cred, ioc(stray))).state).toBe('filled')
        const before = await fakeNonce()
        const { orderId } = await dn.createOrder({
          venue: 'lighter',
          market: 'ETH',
          side: 'long',
          orderType: 'market',
          sizeBase: 0.01,
        })
        const order = await wait(orderId, ['filled', 'rejected', 'unknown'])
        expect(order.status).toBe('filled')
        expect(engineOrders('lighter', order.clientOrderId)).toBe(1)
        // the service's cached nonce was the one the stray order used: it
        // was refused, re-read from nextNonce, and used exactly once more
        expect(await fakeNonce()).toBe(before + 1)
      })
    })

    test('the two Lighter deployments count nonces apart: orders alternating between them are each sent once', async () => {
      // the simulator numbers accounts alike on both chains: the same
      // index with the same API key slot, whose nonces are unrelated
      expect(index.lighter).toBe(index['lighter-mainnet'])
      const refused = async () =>
        (await venueAnswers('lighter', 'sendTx', '400')) +
        (await venueAnswers('lighter-mainnet', 'sendTx', '400'))
      const before = await refused()
      const sent = await venueAnswers('lighter-mainnet', 'sendTx', '200')
      for (let i = 0; i < 3; i++) {
        for (const [venue, market, size] of [
          ['lighter', 'ETH', 0.01],
          ['lighter-mainnet', 'SOL', 0.2],
        ] as const) {
          const { orderId } = await dn.createOrder({
            venue,
            market,
            side: i % 2 === 0 ? 'long' : 'short',
            orderType: 'market',
            sizeBase: size,
          })
          expect((await wait(orderId, ['filled', 'rejected'])).status).toBe(
            'filled',
          )
        }
      }
      // one count for both chains sent each the other's nonce: refused as
      // `invalid nonce`, re-read and resent
      expect(await refused()).toBe(before)
      expect(
        (await venueAnswers('lighter-mainnet', 'sendTx', '200')) - sent,
      ).toBeGreaterThanOrEqual(3)
    })

    test('a deployment signing for another Lighter chain than the venue: the binding fails invalid_signing_chain', async () => {
      // the same venues, served by a deployment configured for testnet (300)
      const testnet = { ...config, lighterTestnet: true }
      const wrong = await composeVenues(sim, venues.protocolUrls, {
        hlMainnet: true,
        asterTestnet: false,
        config: testnet,
      })
      const svc2 = await startTestService({
        dialect,
        rateLimit: 100_000,
        markets: wrong.marketData,
        binding: {
          binders: wrong.binders,
          secrets: createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials')),
          config: testnet,
        },
      })
      const worker2 = startWorker(
        composeWorkerDeps({
          store: svc2.store,
          adapters: wrong.adapters,
          binders: wrong.binders,
          masterKey: MASTER,
          workerId: `protocols-testnet-${dialect}`,
          logger: { info: () => {}, error: () => {} },
        }),
        { idleMs: 25 },
      )
      try {
        const w = privateKeyToAccount(generatePrivateKey())
        const { accountIndex } = sim.faucet('lighter', w.address.toLowerCase())
        const batch = await createDnClient({ baseUrl: svc2.url }).bindVenues(
          w,
          [{ venue: 'lighter', accountIndex }],
          { intervalMs: 25, timeoutMs: 20_000 },
        )
        expect(batch.status).toBe('failed')
        expect(batch.results[0]).toMatchObject({
          venue: 'lighter',
          status: 'failed',
          code: 'invalid_signing_chain',
          retryable: false,
        })
        // nothing was registered at the venue for that account (while the
        // correctly configured service's binding registered its key)
        expect(await lighterKeys(accountIndex)).toEqual([])
        expect(await lighterKeys(index.lighter as number)).toHaveLength(1)
      } finally {
        await worker2.stop()
        await svc2.close()
        await wrong.close()
      }
    })

    describe('Aster: an existing binding is checked live at the venue', () => {
      test('binding aster again while its agent is listed: already_bound', async () => {
        // the service asks the venue, not its own records
        const binder = venues.binders.aster
        const isUsable = binder.isUsable.bind(binder)
        const asked: boolean[] = []
        binder.isUsable = async (o, ref) => {
          const usable = await isUsable(o, ref)
          asked.push(usable)
          return usable
        }
        try {
          const anon = createDnClient({ baseUrl: svc.url })
          const again = await anon.bindVenues(wallet, [{ venue: 'aster' }], {
            intervalMs: 25,
            timeoutMs: 5_000,
          })
          expect(again.results).toMatchObject([
            { venue: 'aster', status: 'already_bound' },
          ])
          expect(again.signRequests).toEqual([])
          expect(asked).toEqual([true])
        } finally {
          binder.isUsable = isUsable
        }
      })

      test('a restarted process checks the agent with the key from the store', async () => {
        const binding = await svc.store.bindings.get(owner, 'aster')
        const ref = binding?.credentialRef as string
        // a fresh binder remembers nothing: only the stored key can sign
        const fresh = composeProtocolVenues(
          { aster: venues.protocolUrls.aster as string },
          protocolVenueOptions({}, svc.store, MASTER),
        ).binders.aster
        expect(await fresh?.isUsable(owner, ref)).toBe(true)
        const stranger = privateKeyToAccount(generatePrivateKey()).address
        expect(await fresh?.isUsable(owner, stranger)).toBe(false)
      })
    })

    /** the API keys the Lighter venue lists for an account */
    const lighterKeys = async (account: number): Promise<unknown[]> => {
      const url = new URL('/api/v1/apikeys', venues.protocolUrls.lighter)
      url.searchParams.set('account_index', String(account))
      url.searchParams.set('api_key_index', '255')
      const res = await fetch(url)
      expect(res.status).toBe(200)
      return ((await res.json()) as { api_keys: unknown[] }).api_keys
    }

    /** the venue's next nonce for the service's Lighter key (slot 5) */
    const fakeNonce = async (): Promise<number> => {
      const url = new URL('/api/v1/nextNonce', venues.protocolUrls.lighter)
      url.searchParams.set('account_index', String(index.lighter))
      url.searchParams.set('api_key_index', '5')
      return ((await (await fetch(url)).json()) as { nonce: number }).nonce
    }
  },
)
