import { expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import { AsterFakeError } from './asterFakeError.js'
import { asterFakeToSnapshot, restoreAsterFake } from './asterFakeSnapshot.js'
import { createAsterFakeState, liveAgent, useNonce } from './asterFakeState.js'

const USER = '0x00000000000000000000000000000000000000a1'
const AGENT = '0x00000000000000000000000000000000000000A2'

test('behavior: agents, builder approvals, nonces, modes and orders survive JSON; a used nonce stays used', () => {
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
  state.nextOrderId = 2

  const saved = asterFakeToSnapshot(state)
  const fresh = createAsterFakeState(exchange, false, now)
  restoreAsterFake(fresh, JSON.parse(JSON.stringify(saved)))

  expect(asterFakeToSnapshot(fresh)).toEqual(saved)
  expect(liveAgent(fresh, USER, AGENT)?.agentName).toBe('dn')
  expect(() => useNonce(fresh, USER, String(T0 * 1000))).toThrow(AsterFakeError)
})
