import { randomUUID } from 'node:crypto'
import { credentialAad, SEND_WINDOW_MS } from '@dn/core'
import { createHyperliquidAdapter } from '@dn/venues'
import { type HyperliquidFake, startHyperliquidFake } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type SendFault,
  type SendFaultProxy,
  type SendMatch,
  startSendFaultProxy,
} from '../packages/venues/src/wire/testing/sendFaultProxy.js'
import { call, dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const ORDERS = '/v1/perp/orders'
/** the Hyperliquid adapter's visibility lag (createHyperliquidAdapter.ts) */
const HL_LAG_MS = 5_000
/** what the API gives a market order to be sent in */
const MARKET_DEADLINE_MS = 60_000

/** the `/exchange` post that places an order */
const isOrder: SendMatch = (method, path, body) =>
  method === 'POST' &&
  path === '/exchange' &&
  (JSON.parse(body) as { action?: { type?: string } }).action?.type === 'order'

/**
 * The never-placed rule on the venue's clock, end to end: the worker
 * trades Hyperliquid through the real adapter, over a loopback proxy that
 * breaks one order post, to the protocol fake on the bed's clock (which
 * dates its answers by it). A market order whose send never reached the
 * venue goes again once a lookup answered past its deadline plus the
 * venue's lag, well inside its 60 s queue deadline; one whose send landed
 * is found, never sent twice.
 */
describe.each(dialects())(
  'uncertain market orders on the venue clock (%s)',
  (dialect) => {
    let bed: WorkerBed
    let fake: HyperliquidFake | undefined
    let proxy: SendFaultProxy | undefined
    let o: TestOwner

    beforeAll(async () => {
      bed = await startWorkerBed({
        dialect,
        workerAdapters: async (venues, clock) => {
          fake = await startHyperliquidFake({
            exchange: venues.exchanges.hl,
            now: clock.now,
          })
          proxy = await startSendFaultProxy(fake.url)
          return {
            hl: createHyperliquidAdapter({
              baseUrl: proxy.url,
              isMainnet: true,
              clock,
              timeout: 5_000,
            }),
          }
        },
      })
      o = await bed.owner()
      // an agent the fake knows, stored as the worker reads credentials
      const agent = generatePrivateKey()
      fake?.seedAgent(o.owner, privateKeyToAccount(agent).address)
      const at = new Date(bed.clock.now()).toISOString()
      await bed.svc.store.bindings.upsert({
        id: randomUUID(),
        owner: o.owner,
        venue: 'hl',
        status: 'bound',
        accountIndex: null,
        credentialRef: privateKeyToAccount(agent).address,
        credentialCiphertext: bed.worker.secrets.encrypt(
          agent,
          credentialAad(o.owner, 'hl'),
        ),
        unusableCode: null,
        createdAt: at,
        updatedAt: at,
      })
    })
    afterAll(async () => {
      await proxy?.close()
      await fake?.close()
      await bed?.close()
    })

    async function get(id: string) {
      const res = await call(bed.svc, 'GET', `${ORDERS}/${id}`, {
        key: o.apiKey,
      })
      expect(res.status).toBe(200)
      return res.body.order
    }

    /** A market buy on hl whose first order post meets `fault`. */
    async function marketBuyMeeting(fault: SendFault) {
      const res = await call(bed.svc, 'POST', ORDERS, {
        key: o.apiKey,
        body: {
          venue: 'hl',
          market: 'ETH',
          side: 'long',
          orderType: 'market',
          sizeBase: 0.01,
        },
      })
      expect(res.status, res.text).toBe(202)
      const id = res.body.orderId as string
      const accepted = bed.clock.now()
      const before = proxy?.faulted() ?? 0
      proxy?.arm(isOrder, fault)
      await bed.drain()
      expect(proxy?.faulted()).toBe(before + 1)
      const order = await get(id)
      expect(order.status).toBe('unknown')
      return { id, accepted, sentAt: Date.parse(order.submittedAt) }
    }

    /** Moves the clock a second at a time until the order leaves `unknown`. */
    async function untilKnown(id: string, maxMs: number) {
      for (let waited = 0; waited < maxMs; waited += 1_000) {
        const order = await get(id)
        if (order.status !== 'unknown') return order
        await bed.advance(1_000)
      }
      return get(id)
    }

    test('a send reset before the venue saw it goes again past its deadline plus the lag, and fills well within 60 s', async () => {
      const { id, accepted, sentAt } = await marketBuyMeeting({
        kind: 'resetBefore',
      })
      const order = await untilKnown(id, MARKET_DEADLINE_MS)
      const at = bed.clock.now()
      expect(order).toMatchObject({
        status: 'filled',
        filledBase: '0.01',
        error: null,
      })
      // not before the venue's clock could show it past deadline and lag,
      // and within two looks after that
      expect(at).toBeGreaterThan(sentAt + SEND_WINDOW_MS + HL_LAG_MS)
      expect(at).toBeLessThanOrEqual(
        sentAt + SEND_WINDOW_MS + HL_LAG_MS + 2_000,
      )
      expect(at - accepted).toBeLessThan(MARKET_DEADLINE_MS - 15_000)
      // placed once at the venue, by the second send
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test('a send that landed (answer lost) is found, never sent again', async () => {
      const { id } = await marketBuyMeeting({ kind: 'resetAfter' })
      const order = await untilKnown(id, 5_000)
      expect(order).toMatchObject({ status: 'filled', filledBase: '0.01' })
      // past every edge the rule knows: still once at the venue
      await bed.advance(SEND_WINDOW_MS + HL_LAG_MS + 5_000)
      expect((await get(id)).status).toBe('filled')
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })
  },
)
