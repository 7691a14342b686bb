import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import type { OrderResolution, PerpOrderRecord } from '../domain/perpOrder.js'
import { perpOrderView } from '../domain/perpOrderView.js'
import { OrderAck } from './orderAck.js'
import {
  PerpOrder,
  PerpOrderList,
  type PerpOrderResolution,
  PerpOrderResponse,
} from './perpOrder.js'
import { ResolveAck } from './resolveAck.js'

const resolution: OrderResolution = {
  status: 'filled',
  filledBase: '1.5',
  averagePrice: '2500.25',
  evidence: 'exported venue trade history',
  confirmNoOpenOrder: true,
  confirmWorkersStopped: true,
  prior: { status: 'unknown', filledBase: '0', averagePrice: null },
  actorKeyId: '22222222-2222-4222-8222-222222222222',
  resolvedAt: '2025-05-02T00:00:00.000Z',
}

// The stored audit is exactly what the response schema describes.
const asResponse = (r: OrderResolution): PerpOrderResolution => r

const record: PerpOrderRecord = {
  id: '3b241101-e2bb-4255-8caf-4136c566a962',
  owner: `0x${'b'.repeat(40)}`,
  apiKeyId: '22222222-2222-4222-8222-222222222222',
  venue: 'lighter-mainnet',
  market: 'ETH',
  side: 'short',
  orderType: 'market',
  sizeBase: '1.5',
  requestedLimitPrice: null,
  limitPrice: null,
  timeInForce: 'ioc',
  slippageBps: 100,
  reduceOnly: false,
  status: 'pending',
  requestedBase: null,
  filledBase: '0',
  averagePrice: null,
  clientOrderId: 'dn-1',
  venueOrderId: null,
  venueStatus: null,
  error: null,
  cancelRequestedAt: null,
  submittedAt: null,
  sendBy: null,
  observedAt: null,
  expiresAt: '2025-05-01T10:01:00.000Z',
  createdAt: '2025-05-01T10:00:00.000Z',
  updatedAt: '2025-05-01T10:00:00.000Z',
  resolution: null,
  leaseOwner: null,
  leaseExpiresAt: null,
  fence: 0,
  nextCheckAt: null,
}
const view = perpOrderView(record)
const ok = (schema: v.GenericSchema, value: unknown) =>
  v.safeParse(schema, value).success

describe('PerpOrder', () => {
  test('default: the order view of a stored order matches', () => {
    expect(ok(PerpOrder, view)).toBe(true)
    expect(
      ok(PerpOrder, perpOrderView({ ...record, resolution, status: 'filled' })),
    ).toBe(true)
  })

  test('behavior: resolution may be absent, null or an audit object', () => {
    const { resolution: _gone, ...noResolution } = view
    expect(ok(PerpOrder, noResolution)).toBe(true)
    expect(ok(PerpOrder, { ...view, resolution: null })).toBe(true)
    expect(ok(PerpOrder, { ...view, resolution: asResponse(resolution) })).toBe(
      true,
    )
    expect(ok(PerpOrder, { ...view, resolution: 'manual' })).toBe(false)
  })

  test('error: every other field is required', () => {
    for (const key of Object.keys(view).filter((k) => k !== 'resolution')) {
      const { [key as keyof typeof view]: _gone, ...rest } = view
      expect(ok(PerpOrder, rest)).toBe(false)
    }
  })

  test('behavior: enums and slippage bounds', () => {
    expect(ok(PerpOrder, { ...view, status: 'cancel_queued' })).toBe(false)
    expect(ok(PerpOrder, { ...view, timeInForce: 'fok' })).toBe(false)
    expect(ok(PerpOrder, { ...view, slippageBps: 5001 })).toBe(false)
    expect(ok(PerpOrder, { ...view, slippageBps: 0 })).toBe(true)
    expect(ok(PerpOrder, { ...view, sizeBase: 1.5 })).toBe(false)
  })

  test('behavior: list, envelope and acknowledgements', () => {
    expect(ok(PerpOrderList, { orders: [view], nextCursor: null })).toBe(true)
    expect(ok(PerpOrderResponse, { order: view })).toBe(true)
    for (const status of ['pending', 'cancelled', 'cancel_queued']) {
      expect(ok(OrderAck, { orderId: view.orderId, status })).toBe(true)
    }
    expect(ok(OrderAck, { orderId: view.orderId, status: 'open' })).toBe(false)
    expect(
      ok(ResolveAck, { orderId: view.orderId, status: 'filled', resolution }),
    ).toBe(true)
    expect(
      ok(ResolveAck, { orderId: view.orderId, status: 'unknown', resolution }),
    ).toBe(false)
    expect(
      ok(ResolveAck, {
        orderId: view.orderId,
        status: 'filled',
        resolution: null,
      }),
    ).toBe(false)
  })
})
