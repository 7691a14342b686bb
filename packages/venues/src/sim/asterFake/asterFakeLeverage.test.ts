import { describe, expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import { placeOnEngine } from './asterFakeEnginePlace.js'
import {
  leverageBracket,
  setLeverage,
  setMarginType,
  settingOf,
} from './asterFakeLeverage.js'
import { createAsterFakeState } from './asterFakeState.js'

const USER = '0x00000000000000000000000000000000000000b7'

function setup() {
  const now = () => T0
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 4,
    clock: { now },
  })
  return { exchange, state: createAsterFakeState(exchange, false, now) }
}

describe('asterFake leverage and margin type', () => {
  test('behavior: a setting made before the faucet reaches the engine with the first order', () => {
    const { exchange, state } = setup()
    setLeverage(state, USER, [
      ['symbol', 'ETHUSDT'],
      ['leverage', '4'],
    ])
    setMarginType(state, USER, [
      ['symbol', 'ETHUSDT'],
      ['marginType', 'ISOLATED'],
    ])
    expect(settingOf(state, USER, 'ETHUSDT')).toEqual({
      leverage: 4,
      marginType: 'isolated',
      applied: false,
    })
    exchange.faucet(USER, 10_000)
    placeOnEngine(state, USER, {
      symbol: 'ETHUSDT',
      side: 'BUY',
      quantity: '0.1',
      price: '4000',
      tif: 'IOC',
      reduceOnly: false,
      clientOrderId: 'lev-1',
    })
    expect(exchange.positions(USER)).toMatchObject([
      { market: 'ETHUSDT', leverage: '4', marginMode: 'isolated' },
    ])
    expect(settingOf(state, USER, 'ETHUSDT').applied).toBe(true)
  })

  test('error: the venue codes for bad leverage and locked margin types', () => {
    const { exchange, state } = setup()
    exchange.faucet(USER, 10_000)
    const code = (f: () => unknown) => {
      try {
        f()
      } catch (e) {
        return (e as { code?: number }).code
      }
      return 0
    }
    // SOLUSDT allows 50x on the engine
    expect(
      code(() =>
        setLeverage(state, USER, [
          ['symbol', 'SOLUSDT'],
          ['leverage', '51'],
        ]),
      ),
    ).toBe(-4028)
    expect(
      code(() =>
        setLeverage(state, USER, [
          ['symbol', 'SOLUSDT'],
          ['leverage', '2.5'],
        ]),
      ),
    ).toBe(-4028)
    expect(code(() => setLeverage(state, USER, [['symbol', 'NOPE']]))).toBe(
      -1121,
    )
    expect(
      code(() =>
        setMarginType(state, USER, [
          ['symbol', 'SOLUSDT'],
          ['marginType', 'CROSSED'],
        ]),
      ),
    ).toBe(-4046)
    exchange.place(USER, {
      market: 'SOLUSDT',
      side: 'long',
      size: '1',
      price: '100',
      timeInForce: 'gtc',
      reduceOnly: false,
      clientOrderId: 'rest-1',
    })
    state.orders.set(`${USER}|rest-1`, {
      user: USER,
      symbol: 'SOLUSDT',
      orderId: 1,
      clientOrderId: 'rest-1',
      side: 'BUY',
      type: 'LIMIT',
      timeInForce: 'GTC',
      price: '100',
      reduceOnly: false,
      time: T0,
      builder: null,
      feeRate: null,
    })
    expect(
      code(() =>
        setMarginType(state, USER, [
          ['symbol', 'SOLUSDT'],
          ['marginType', 'ISOLATED'],
        ]),
      ),
    ).toBe(-4047)
  })

  test('unit: leverageBracket lists one bracket per symbol at its maximum', () => {
    const { state } = setup()
    expect(leverageBracket(state, USER, [['symbol', 'BTCUSDT']])).toEqual({
      symbol: 'BTCUSDT',
      brackets: [
        {
          bracket: 1,
          initialLeverage: 125,
          notionalCap: 1_000_000,
          notionalFloor: 0,
          maintMarginRatio: 0.004,
          cum: 0,
        },
      ],
    })
    expect(leverageBracket(state, USER, [])).toHaveLength(3)
  })
})
