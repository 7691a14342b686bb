import { expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import { AsterFakeError } from './asterFakeError.js'
import { asterFakeToSnapshot, restoreAsterFake } from './asterFakeSnapshot.js'
import { createAsterFakeState, liveAgent, useNonce } from './asterFakeState.js'

const USER = '0x00000000000000000000000000000000000000a1'
const AGENT = '0x00000000000000000000000000000000000000A2'

test('behavior: agents, builder approvals, nonces, modes, settings, orders and stops survive JSON; a used nonce stays used', () => {
  const now = () => T0
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 1,
    clock: { now },
  })
  const state = createAsterFakeState(exchange, false, now)
  state.agents.set(
    USER,
    new Map([
      [
        AGENT.toLowerCase(),
        {
          agentAddress: AGENT,
          agentName: 'dn',
          ipWhitelist: '',
          expired: T0 + 86_400_000,
          canSpotTrade: false,
          canPerpTrade: true,
          canWithdraw: false,
        },
      ],
    ]),
  )
  state.builders.set(`${USER}|0xbuilder`, '0.0002')
  state.builderInfo.set(`${USER}|0xbuilder`, {
    builderAddress: '0xBuilder',
    maxFeeRate: '0.0002',
    builderName: 'b',
  })
  state.settings.set(`${USER}|ETHUSDT`, {
    leverage: 3,
    marginType: 'isolated',
    applied: true,
  })
  useNonce(state, USER, String(T0 * 1000))
  state.hedge.add(USER)
  const order = {
    user: USER,
    symbol: 'BTCUSDT',
    orderId: 1,
    clientOrderId: '0xabc',
    side: 'BUY' as const,
    type: 'LIMIT' as const,
    timeInForce: 'GTC',
    price: '50000',
    reduceOnly: false,
    time: T0,
    builder: null,
    feeRate: null,
  }
  state.orders.set(`${USER}|0xabc`, order)
  state.byOrderId.set(1, order)
  const stop = {
    ...order,
    orderId: 2,
    clientOrderId: 'stop-1',
    type: 'STOP_MARKET' as const,
    price: '0',
    stopPrice: '40000',
    workingType: 'CONTRACT_PRICE',
    quantity: '0.01',
  }
  state.orders.set(`${USER}|stop-1`, stop)
  state.byOrderId.set(2, stop)
  state.triggers.set(2, { status: 'NEW', updateTime: T0 })
  state.nextOrderId = 3

  const saved = asterFakeToSnapshot(state)
  const fresh = createAsterFakeState(exchange, false, now)
  restoreAsterFake(fresh, JSON.parse(JSON.stringify(saved)))

  expect(asterFakeToSnapshot(fresh)).toEqual(saved)
  expect(liveAgent(fresh, USER, AGENT)?.agentName).toBe('dn')
  expect(fresh.triggers.get(2)).toEqual({ status: 'NEW', updateTime: T0 })
  expect(fresh.settings.get(`${USER}|ETHUSDT`)?.leverage).toBe(3)
  // a snapshot saved before these were kept still restores
  const { builderInfo, settings, triggers, ...older } = saved
  const old = createAsterFakeState(exchange, false, now)
  restoreAsterFake(old, JSON.parse(JSON.stringify(older)))
  expect(old.builders.get(`${USER}|0xbuilder`)).toBe('0.0002')
  expect([builderInfo, settings, triggers].map((e) => e?.length)).toEqual([
    1, 1, 1,
  ])
  expect(() => useNonce(fresh, USER, String(T0 * 1000))).toThrow(AsterFakeError)
})
