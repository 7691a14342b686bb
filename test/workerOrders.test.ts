import { NEVER_PLACED_AFTER_MS, runWorkerRound, SEND_WINDOW_MS } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { call, dialects, type TestOwner } from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const ORDERS = '/v1/perp/orders'

describe.each(dialects())(
  'perp orders executed by the worker (%s)',
  (dialect) => {
    let bed: WorkerBed
    let o: TestOwner
    beforeAll(async () => {
      bed = await startWorkerBed({ dialect })
      o = await bed.owner()
    })
    afterAll(() => bed?.close())

    async function place(body: Record<string, unknown>) {
      const res = await call(bed.svc, 'POST', ORDERS, { key: o.apiKey, body })
      expect(res.status, res.text).toBe(202)
      return res.body.orderId as string
    }
    /** as if a worker committed `submitting` and died before sending */
    async function diedMidSubmit(id: string) {
      const at = new Date(bed.clock.now()).toISOString()
      await bed.svc.store.orders.update(id, {
        status: 'submitting',
        submittedAt: at,
        updatedAt: at,
      })
      await bed.drain()
    }
    async function get(id: string) {
      const res = await call(bed.svc, 'GET', `${ORDERS}/${id}`, {
        key: o.apiKey,
      })
      expect(res.status).toBe(200)
      return res.body.order
    }

    test('market order: pending → filled with protection price, fills and times', async () => {
      const id = await place({
        venue: 'hl',
        market: 'BTC',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.012345678,
      })
      expect((await get(id)).status).toBe('pending')
      await bed.drain()
      const order = await get(id)
      const mark = Number((await bed.venues.marketData.quote('hl', 'BTC')).mark)
      expect(order).toMatchObject({
        status: 'filled',
        requestedBase: '0.01234',
        filledBase: '0.01234',
        error: null,
      })
      expect(Number(order.limitPrice)).toBeGreaterThan(mark)
      expect(Number(order.limitPrice)).toBeLessThanOrEqual(mark * 1.0101)
      expect(Number(order.averagePrice)).toBeLessThanOrEqual(
        Number(order.limitPrice),
      )
      expect(order.submittedAt).not.toBeNull()
      expect(order.observedAt).not.toBeNull()
      expect(order.venueStatus).toBe('filled')
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    /** A small Hyperliquid market order of `k`'s, accepted (202). */
    const placeSmallHl = async (k: TestOwner) => {
      const res = await call(bed.svc, 'POST', ORDERS, {
        key: k.apiKey,
        body: {
          venue: 'hl',
          market: 'BTC',
          side: 'long',
          orderType: 'market',
          sizeBase: 0.001,
        },
      })
      expect(res.status, res.text).toBe(202)
      return res.body.orderId as string
    }

    test('a key revoked after the worker used it: its queued order is rejected, never sent', async () => {
      const k = await bed.owner()
      const placeWith = () => placeSmallHl(k)
      const first = await placeWith()
      // the worker has read (and may keep) the key by now
      await bed.drain()
      const queued = await placeWith()
      const at = new Date(bed.clock.now()).toISOString()
      expect(await bed.svc.store.apiKeys.revoke(k.keyId, at)).toBe(true)
      await bed.drain()
      const stored = await bed.svc.store.orders.get(queued)
      expect(stored).toMatchObject({
        status: 'rejected',
        error: 'the API key was revoked before submission',
        submittedAt: null,
      })
      const sent = bed.venues.exchanges.hl.stats().byClientOrderId
      expect(sent.get(stored?.clientOrderId as string)).toBeUndefined()
      expect((await bed.svc.store.orders.get(first))?.status).toBe('filled')
    })

    test('a binding revoked after the worker used it: its queued order is rejected, never sent', async () => {
      const k = await bed.owner()
      const placeWith = () => placeSmallHl(k)
      const first = await placeWith()
      // the worker has read (and may keep) the binding by now
      await bed.drain()
      expect((await bed.svc.store.orders.get(first))?.status).toBe('filled')
      const queued = await placeWith()
      const binding = await bed.svc.store.bindings.get(k.owner, 'hl')
      expect(binding?.status).toBe('bound')
      await bed.svc.store.bindings.upsert({
        ...(binding as NonNullable<typeof binding>),
        status: 'revoked',
        credentialCiphertext: null,
        updatedAt: new Date(bed.clock.now()).toISOString(),
      })
      await bed.drain()
      const stored = await bed.svc.store.orders.get(queued)
      expect(stored).toMatchObject({
        status: 'rejected',
        error: `hl is not bound for ${k.owner}`,
        submittedAt: null,
      })
      const sent = bed.venues.exchanges.hl.stats().byClientOrderId
      expect(sent.get(stored?.clientOrderId as string)).toBeUndefined()
    })

    test('limit GTC rests open, fills when the mark crosses', async () => {
      const mark = Number(
        (await bed.venues.marketData.quote('aster', 'ETHUSDT')).mark,
      )
      const limit = Math.floor(mark * 0.98 * 100) / 100
      const id = await place({
        venue: 'aster',
        market: 'ETHUSDT',
        side: 'long',
        orderType: 'limit',
        sizeBase: 0.05,
        limitPrice: limit,
      })
      await bed.drain()
      expect(await get(id)).toMatchObject({
        status: 'open',
        filledBase: '0',
        averagePrice: null,
        venueStatus: 'NEW',
      })
      bed.venues.exchanges.aster.setMark(
        'ETHUSDT',
        String(Math.floor(limit * 0.99 * 100) / 100),
      )
      await bed.advance(2_000)
      const order = await get(id)
      expect(order).toMatchObject({
        status: 'filled',
        filledBase: '0.05',
        venueStatus: 'FILLED',
      })
      bed.venues.exchanges.aster.setMark('ETHUSDT', null)
    })

    test('cancel of an open order is queued, then cancelled at the venue', async () => {
      const mark = Number(
        (await bed.venues.marketData.quote('lighter', 'SOL')).mark,
      )
      const id = await place({
        venue: 'lighter',
        market: 'SOL',
        side: 'short',
        orderType: 'limit',
        sizeBase: 1,
        limitPrice: Math.ceil(mark * 1.05),
      })
      await bed.drain()
      expect((await get(id)).status).toBe('open')
      const res = await call(bed.svc, 'POST', `${ORDERS}/${id}/cancel`, {
        key: o.apiKey,
        body: {},
      })
      expect(res.body).toEqual({ orderId: id, status: 'cancel_queued' })
      await bed.drain()
      const order = await get(id)
      expect(order.status).toBe('cancelled')
      expect(order.cancelRequestedAt).not.toBeNull()
    })

    test('partially filled at the touch, then cancelled with its fills kept', async () => {
      const quote = await bed.venues.marketData.quote('aster', 'SOLUSDT')
      const top = bed.venues.exchanges.aster.book('SOLUSDT').asks[0]
      const topSize = String(top?.size)
      const size = Number(topSize) * 2
      const id = await place({
        venue: 'aster',
        market: 'SOLUSDT',
        side: 'long',
        orderType: 'limit',
        sizeBase: size,
        limitPrice: Number(quote.ask),
      })
      await bed.drain()
      const partial = await get(id)
      expect(partial).toMatchObject({
        status: 'partially_filled',
        filledBase: topSize,
        averagePrice: quote.ask,
        venueStatus: 'PARTIALLY_FILLED',
      })
      await call(bed.svc, 'POST', `${ORDERS}/${id}/cancel`, {
        key: o.apiKey,
        body: {},
      })
      await bed.drain()
      expect(await get(id)).toMatchObject({
        status: 'cancelled',
        filledBase: topSize,
      })
    })

    test('two orders on one account and market go one at a time; the one waiting for the lock reads no quote', async () => {
      const a = await place({
        venue: 'lighter-mainnet',
        market: 'BTC',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.001,
      })
      const b = await place({
        venue: 'lighter-mainnet',
        market: 'BTC',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.001,
      })
      // a slow venue keeps the first submission holding the account lock
      // while the second tries to take it
      bed.venues.exchanges['lighter-mainnet'].setFaults({ latencyMs: 100 })
      const adapter = bed.worker.adapters['lighter-mainnet']
      const quote = adapter.quote
      let quotes = 0
      adapter.quote = (symbol) => {
        quotes += 1
        return quote.call(adapter, symbol)
      }
      try {
        await runWorkerRound(bed.worker)
      } finally {
        adapter.quote = quote
        bed.venues.exchanges['lighter-mainnet'].setFaults({})
      }
      const first = [(await get(a)).status, (await get(b)).status].sort()
      expect(first).toEqual(['filled', 'pending'])
      // the lock is taken before the venue is read: one quote, the sender's
      expect(quotes).toBe(1)
      await bed.advance(500)
      expect([(await get(a)).status, (await get(b)).status]).toEqual([
        'filled',
        'filled',
      ])
    })

    test('resting order expires: the worker cancels it at its lifetime', async () => {
      const mark = Number((await bed.venues.marketData.quote('hl', 'ETH')).mark)
      const id = await place({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'limit',
        sizeBase: 0.01,
        limitPrice: Math.floor(mark * 0.9),
        expirySeconds: 5,
      })
      await bed.drain()
      expect((await get(id)).status).toBe('open')
      await bed.advance(6_000)
      expect(await get(id)).toMatchObject({
        status: 'expired',
        venueStatus: 'canceled',
      })
    })

    test('cancelled at the venue unasked (its dead-man switch fired): cancelled, or expired past its own expiry', async () => {
      // two markets: orders on one account and market go one at a time
      const limit = async (market: string, sizeBase: number) => ({
        venue: 'hl',
        market,
        side: 'long',
        orderType: 'limit',
        sizeBase,
        limitPrice: Math.floor(
          Number((await bed.venues.marketData.quote('hl', market)).mark) * 0.9,
        ),
      })
      const resting = await place(await limit('ETH', 0.01))
      const expiring = await place({
        ...(await limit('BTC', 0.001)),
        expirySeconds: 5,
      })
      await bed.drain()
      expect((await get(resting)).status).toBe('open')
      expect((await get(expiring)).status).toBe('open')
      // the venue's own cancel-all fires while no worker looks
      bed.venues.exchanges.hl.scheduleCancel(
        o.owner,
        bed.clock.now() + 1_000,
        null,
      )
      await bed.advance(6_000)
      expect(await get(resting)).toMatchObject({
        status: 'cancelled',
        venueStatus: 'scheduledCancel',
        cancelRequestedAt: null,
      })
      expect(await get(expiring)).toMatchObject({
        status: 'expired',
        venueStatus: 'scheduledCancel',
      })
    })

    test('queue deadline: an order not submitted before expiry expires unsent', async () => {
      const id = await place({
        venue: 'hl',
        market: 'SOL',
        side: 'long',
        orderType: 'market',
        sizeBase: 1,
        expirySeconds: 1,
      })
      bed.clock.advance(2_000)
      await bed.drain()
      const order = await get(id)
      expect(order).toMatchObject({
        status: 'expired',
        submittedAt: null,
        requestedBase: null,
      })
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBeUndefined()
    })

    test('rejected: a post-only order that would take liquidity', async () => {
      const mark = Number(
        (await bed.venues.marketData.quote('aster', 'BTCUSDT')).mark,
      )
      const id = await place({
        venue: 'aster',
        market: 'BTCUSDT',
        side: 'long',
        orderType: 'limit',
        timeInForce: 'post_only',
        sizeBase: 0.001,
        limitPrice: Math.ceil(mark * 1.02),
      })
      await bed.drain()
      const order = await get(id)
      expect(order.status).toBe('rejected')
      expect(order.error).toMatch(/post|liquidity|taker|GTX/i)
    })

    test('outage before sending: stays pending, then goes once the venue is back', async () => {
      const id = await place({
        venue: 'lighter',
        market: 'ETH',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.01,
      })
      bed.venues.exchanges.lighter.setFaults({ outage: true })
      await bed.drain()
      expect((await get(id)).status).toBe('pending')
      bed.venues.exchanges.lighter.setFaults({ outage: false })
      await bed.advance(3_000)
      const order = await get(id)
      expect(order.status).toBe('filled')
      expect(
        bed.venues.exchanges.lighter
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test('timeout after the venue accepted: unknown, reconciled by client order id, never resent', async () => {
      bed.venues.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 1 })
      const id = await place({
        venue: 'hl',
        market: 'SOL',
        side: 'short',
        orderType: 'market',
        sizeBase: 0.5,
      })
      await bed.drain(1)
      expect((await get(id)).status).toBe('unknown')
      bed.venues.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 0 })
      await bed.advance(2_000)
      const order = await get(id)
      expect(order).toMatchObject({
        status: 'filled',
        filledBase: '0.5',
        error: null,
      })
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test('a submission that never reached the venue: unknown, then expired once its send window closed past its queue deadline, never sent', async () => {
      const id = await place({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'market',
        sizeBase: 0.01,
      })
      await diedMidSubmit(id)
      expect((await get(id)).status).toBe('unknown')
      // the venue could still execute it inside its window: keep asking
      await bed.advance(SEND_WINDOW_MS + 30_000)
      expect((await get(id)).status).toBe('unknown')
      await bed.advance(NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS)
      const order = await get(id)
      expect(order).toMatchObject({ status: 'expired', filledBase: '0' })
      expect(order.error).toMatch(/never received/)
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBeUndefined()
    })

    test('one whose queue deadline is still ahead goes again once proven never placed: sent once at the venue, with the same client order id', async () => {
      const quote = await bed.venues.marketData.quote('hl', 'ETH')
      const id = await place({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'limit',
        limitPrice: Math.round(Number(quote.mark) * 1.01 * 10) / 10,
        sizeBase: 0.01,
        expirySeconds: 3_600,
      })
      await diedMidSubmit(id)
      expect((await get(id)).status).toBe('unknown')
      await bed.advance(NEVER_PLACED_AFTER_MS + 1_000)
      const order = await get(id)
      expect(order).toMatchObject({ status: 'filled', filledBase: '0.01' })
      expect(
        bed.venues.exchanges.hl
          .stats()
          .byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test('a cancel queued on such an order ends it cancelled instead', async () => {
      const id = await place({
        venue: 'hl',
        market: 'ETH',
        side: 'short',
        orderType: 'market',
        sizeBase: 0.01,
      })
      await diedMidSubmit(id)
      expect((await get(id)).status).toBe('unknown')
      const cancel = await call(bed.svc, 'POST', `${ORDERS}/${id}/cancel`, {
        key: o.apiKey,
        body: {},
      })
      expect(cancel.body).toEqual({ orderId: id, status: 'cancel_queued' })
      await bed.advance(NEVER_PLACED_AFTER_MS + 1_000)
      expect(await get(id)).toMatchObject({
        status: 'cancelled',
        filledBase: '0',
      })
    })

    test('a late submission is refused by the venue after its send window: nothing placed, sent again in a new window', async () => {
      // the venue holds every request longer than its send window
      const hl = bed.venues.adapters.hl
      const venuePlace = hl.place.bind(hl)
      const windows: number[] = []
      hl.place = async (c, r) => {
        windows.push((r.validUntil ?? 0) - bed.clock.now())
        if (windows.length === 1) bed.clock.advance(SEND_WINDOW_MS + 1)
        return venuePlace(c, r)
      }
      try {
        const id = await place({
          venue: 'hl',
          market: 'ETH',
          side: 'short',
          orderType: 'market',
          sizeBase: 0.01,
        })
        await bed.drain()
        await bed.advance(6_000)
        const order = await get(id)
        expect(order.status).toBe('filled')
        // the first request arrived too late and was refused unplaced
        expect(windows[0]).toBe(SEND_WINDOW_MS)
        expect(windows.length).toBe(2)
        expect(
          bed.venues.exchanges.hl
            .stats()
            .byClientOrderId.get(order.clientOrderId),
        ).toBe(1)
      } finally {
        hl.place = venuePlace
      }
    })

    test('a worker that died mid-submit leaves unknown; an operator resolves it after expiry', async () => {
      const id = await place({
        venue: 'aster',
        market: 'SOLUSDT',
        side: 'long',
        orderType: 'market',
        sizeBase: 1,
        expirySeconds: 10,
      })
      await diedMidSubmit(id)
      const unknown = await get(id)
      expect(unknown.status).toBe('unknown')
      expect(unknown.error).toMatch(/worker stopped while submitting|reconcil/)
      const resolveBody = {
        status: 'cancelled',
        filledBase: 0,
        averagePrice: null,
        evidence: 'venue shows no order for this client id',
        confirmNoOpenOrder: true,
        confirmWorkersStopped: true,
      }
      const early = await call(bed.svc, 'POST', `${ORDERS}/${id}/resolve`, {
        key: o.apiKey,
        body: resolveBody,
      })
      expect(early.body.code, early.text).toBe('order_not_expired')
      await bed.advance(11_000)
      expect((await get(id)).status).toBe('unknown')
      const unfenced = await call(bed.svc, 'POST', `${ORDERS}/${id}/resolve`, {
        key: o.apiKey,
        body: resolveBody,
      })
      expect(unfenced.body.code).toBe('workers_not_fenced')
      await bed.svc.store.workers.fenceAll(
        new Date(bed.clock.now()).toISOString(),
      )
      const done = await call(bed.svc, 'POST', `${ORDERS}/${id}/resolve`, {
        key: o.apiKey,
        body: resolveBody,
      })
      expect(done.status, done.text).toBe(200)
      expect(done.body.resolution).toMatchObject({
        actorKeyId: o.keyId,
        prior: { status: 'unknown' },
      })
      expect(await get(id)).toMatchObject({
        status: 'cancelled',
        resolution: { evidence: resolveBody.evidence },
      })
      // the fenced test worker may not claim anything any more
      expect(await bed.drain()).toBe(0)
    })
  },
)
