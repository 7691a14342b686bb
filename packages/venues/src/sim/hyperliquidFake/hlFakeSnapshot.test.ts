import { expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import { hlFakeToSnapshot, restoreHlFake } from './hlFakeSnapshot.js'
import {
  approveAgent,
  createHlFakeState,
  useNonce,
  userOfSigner,
} from './hlFakeState.js'

const USER = '0x00000000000000000000000000000000000000a1'
const AGENT = '0x00000000000000000000000000000000000000a2'

test('behavior: agents, fee approvals, nonces, orders, triggers and switches survive JSON; a used nonce stays used', () => {
  const now = () => T0
  const exchange = createSimExchange({ venue: 'hl', seed: 1, clock: { now } })
  exchange.faucet(USER, 1000)
  const state = createHlFakeState(exchange, true, now)
  approveAgent(state, USER, AGENT, 'dn valid_until 1900000000000')
  expect(useNonce(state, AGENT, T0 - 5)).toBeNull()
  state.builderFees.set(`${USER}|0xbuilder`, 30)
  state.ordersByOid.set(7, {
    user: USER,
    coin: 'BTC',
    side: 'B',
    limitPx: '50000',
    origSz: '0.001',
    oid: 7,
    timestamp: T0,
    cloid: '0xabc',
    engineId: '0xabc',
  })
  state.oidByCloid.set(`${USER}|0xabc`, 7)
  state.ordersByOid.set(10_000_000_001, {
    user: USER,
    coin: 'BTC',
    side: 'A',
    limitPx: '40000',
    origSz: '0.001',
    oid: 10_000_000_001,
    timestamp: T0,
    cloid: null,
    engineId: 'hlfake-x-1',
    tif: null,
    reduceOnly: true,
    trigger: { isMarket: true, triggerPx: '45000', tpsl: 'sl' },
  })
  state.triggers.set(10_000_000_001, { status: 'waitingForTrigger', at: T0 })
  state.scheduledCancels.set(USER, T0 + 60_000)
  state.cancelTriggers.set(USER, [T0 - 1000])
  state.nextPlain = 4

  const saved = hlFakeToSnapshot(state)
  const fresh = createHlFakeState(exchange, true, now)
  restoreHlFake(fresh, JSON.parse(JSON.stringify(saved)))

  expect(hlFakeToSnapshot(fresh)).toEqual(saved)
  expect(fresh.triggers.get(10_000_000_001)?.status).toBe('waitingForTrigger')
  expect(fresh.ordersByOid.get(10_000_000_001)?.trigger?.triggerPx).toBe(
    '45000',
  )
  expect(userOfSigner(fresh, AGENT)).toBe(USER)
  expect(useNonce(fresh, AGENT, T0 - 5)).toBe(
    `Invalid nonce: duplicate nonce ${T0 - 5}`,
  )
})
