import { expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import {
  lighterFakeToSnapshot,
  restoreLighterFake,
} from './lighterFakeSnapshot.js'
import {
  createLighterFakeState,
  engineOrderId,
  FIRST_ORDER_INDEX,
  keyId,
} from './lighterFakeState.js'

test('behavior: API keys, nonces, orders (with their market) and integrators survive JSON', () => {
  const now = () => T0
  const exchange = createSimExchange({
    venue: 'lighter',
    seed: 1,
    clock: { now },
  })
  const state = createLighterFakeState(exchange, 'lighter', 304, now)
  const market = state.markets.find((m) => m.symbol === 'BTC')
  if (!market) throw new RangeError('BTC not listed')
  state.keys.set(keyId(1, 3), 'ab'.repeat(40))
  state.nonces.set(keyId(1, 3), 12)
  const order = {
    accountIndex: 1,
    owner: '0x00000000000000000000000000000000000000a1',
    market,
    clientOrderIndex: 99,
    orderIndex: FIRST_ORDER_INDEX,
    isAsk: false,
    price: 500000,
    baseAmount: 100,
    timeInForce: 1,
    reduceOnly: false,
    orderExpiry: T0 + 3_600_000,
    timestamp: T0,
    engineId: engineOrderId(1, 99),
    refusal: null,
  }
  state.ordersByIndex.set(order.orderIndex, order)
  state.orders.set(keyId(1, 99), order)
  state.integrators.set(
    1,
    new Map([
      [
        7,
        {
          account_index: 7,
          max_perps_taker_fee: 0,
          max_perps_maker_fee: 0,
          max_spot_taker_fee: 0,
          max_spot_maker_fee: 0,
          approval_expiry: T0 + 86_400_000,
        },
      ],
    ]),
  )
  state.nextOrderIndex = FIRST_ORDER_INDEX + 1
  state.nextPlain = 2

  const saved = lighterFakeToSnapshot(state)
  const fresh = createLighterFakeState(exchange, 'lighter', 304, now)
  restoreLighterFake(fresh, JSON.parse(JSON.stringify(saved)))

  expect(lighterFakeToSnapshot(fresh)).toEqual(saved)
  // one order, reachable both ways, on the fake's own market listing
  expect(fresh.orders.get(keyId(1, 99))).toBe(
    fresh.ordersByIndex.get(FIRST_ORDER_INDEX),
  )
  expect(fresh.orders.get(keyId(1, 99))?.market).toBe(
    fresh.markets.find((m) => m.symbol === 'BTC'),
  )
})
