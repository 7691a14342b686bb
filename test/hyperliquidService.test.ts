import type { ComposedVenues } from '@dn/cli'
import type { DnClient, PerpOrderStatus } from '@dn/client'
import type { SimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 7)
const config = FEE_CONFIG

/**
 * `hl` through the service as `dn up` runs it: the Hyperliquid protocol
 * adapter and binder against the signature-checking fake, a real worker
 * loop, a wallet binding by signature, then orders and a paired task.
 */
describe.each(dialects())(
  'Hyperliquid on the real protocol through the service (%s)',
  (dialect) => {
    let bed: ProtocolService
    let sim: SimVenues
    let venues: ComposedVenues
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    // nonces from the service's store, as dn up wires them
    const nonceNames = new Set<string>()

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 31,
        masterKey: MASTER,
        config,
        workerId: `hl-${dialect}`,
        counters: (svc) => ({
          counters: {
            next: (name: string, floor: number) => {
              nonceNames.add(name)
              return svc().store.counters.next(name, floor)
            },
          },
        }),
      })
      ;({ sim, venues } = bed)
      dn = await bed.bindAndKey(wallet, [{ venue: 'hl' }, { venue: 'aster' }])
    }, 60_000)

    afterAll(() => bed?.close())

    const wait = (id: string, until?: PerpOrderStatus[]) =>
      dn.waitForOrder(id, {
        intervalMs: 25,
        timeoutMs: 15_000,
        ...(until ? { until } : {}),
      })

    test('a market order is signed by the bound agent and fills at the venue', async () => {
      const { orderId } = await dn.createOrder({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.01,
      })
      const order = await wait(orderId, [
        'filled',
        'rejected',
        'cancelled',
        'unknown',
      ])
      expect(order).toMatchObject({
        status: 'filled',
        filledBase: '0.01',
        venueStatus: 'filled',
      })
      expect(
        sim.exchanges.hl.stats().byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
      // signed with a nonce from the store's counter for this agent
      expect([...nonceNames].every((n) => n.startsWith('hl-nonce|0x'))).toBe(
        true,
      )
      expect(nonceNames.size).toBe(1)
    })

    test('a resting order is cancelled at the venue by client order id', async () => {
      const mark = Number((await venues.marketData.quote('hl', 'ETH')).mark)
      const { orderId } = await dn.createOrder({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'limit',
        sizeBase: 0.01,
        limitPrice: Math.floor(mark * 0.9),
      })
      expect((await wait(orderId, ['open', 'rejected'])).status).toBe('open')
      expect((await dn.cancelOrder(orderId)).status).toBe('cancel_queued')
      expect((await wait(orderId, ['cancelled'])).status).toBe('cancelled')
    })

    test('a timeout after the venue accepted: unknown, then reconciled by cloid, one venue order', async () => {
      sim.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 1 })
      const { orderId } = await dn.createOrder({
        venue: 'hl',
        market: 'SOL',
        side: 'short',
        orderType: 'market',
        sizeBase: 0.2,
      })
      const unknown = await wait(orderId, ['unknown', 'filled'])
      sim.exchanges.hl.setFaults({})
      const order =
        unknown.status === 'filled' ? unknown : await wait(orderId, ['filled'])
      expect(order.status).toBe('filled')
      expect(
        sim.exchanges.hl.stats().byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test('a paired task with an hl leg opens and closes through the protocol', async () => {
      const { taskId } = await dn.createTask({
        longVenue: 'hl',
        shortVenue: 'aster',
        longMarket: 'BTC',
        shortMarket: 'BTCUSDT',
        sizeUsd: 1_000,
        autoClose: false,
      })
      const running = await dn.waitForTask(taskId, {
        intervalMs: 25,
        timeoutMs: 15_000,
      })
      expect(running.status).toBe('running')
      expect(running.longSize).toBe(running.shortSize)
      await dn.closeTask(taskId)
      expect(
        (
          await dn.waitForTask(taskId, {
            intervalMs: 25,
            timeoutMs: 15_000,
            until: ['closed', 'failed'],
          })
        ).status,
      ).toBe('closed')
    })

    test('an agent the venue no longer knows: the order is rejected with the venue reason', async () => {
      // the wallet approves another agent under the same name: ours is replaced
      const binder = venues.binders.hl
      const owner = wallet.address.toLowerCase()
      const prepared = await binder.prepare(
        owner,
        { venue: 'hl' },
        { ...config, feeApproval: false },
      )
      const signatures: Record<string, string> = {}
      for (const r of prepared.requests) {
        if (r.method === 'eth_signTypedData_v4')
          signatures[r.requestId] = await wallet.signTypedData(
            r.payload as Parameters<typeof wallet.signTypedData>[0],
          )
      }
      expect(
        await binder.complete(owner, {
          target: { venue: 'hl' },
          ...prepared,
          signatures,
        }),
      ).toEqual({ outcome: 'bound' })
      const { orderId } = await dn.createOrder({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.01,
      })
      const order = await wait(orderId, ['rejected', 'filled'])
      expect(order.status).toBe('rejected')
      expect(order.error).toMatch(/does not exist/)
    })
  },
)
