import { describe, expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { T0 } from '../simTestKit.js'
import { countdownCancelAll } from './asterFakeCountdown.js'
import { placeOrder } from './asterFakeOrders.js'
import { createAsterFakeState } from './asterFakeState.js'
import { reached, sweepTriggers } from './asterFakeTriggers.js'
import { watchAsterFake } from './asterFakeWatch.js'

describe('reached', () => {
  test.each([
    // STOP / STOP_MARKET: BUY at or above, SELL at or below
    ['STOP_MARKET', 'BUY', '101', '100', true],
    ['STOP_MARKET', 'BUY', '100', '100', true],
    ['STOP_MARKET', 'BUY', '99', '100', false],
    ['STOP', 'SELL', '99', '100', true],
    ['STOP', 'SELL', '101', '100', false],
    // TAKE_PROFIT / TAKE_PROFIT_MARKET: BUY at or below, SELL at or above
    ['TAKE_PROFIT', 'BUY', '99', '100', true],
    ['TAKE_PROFIT', 'BUY', '101', '100', false],
    ['TAKE_PROFIT_MARKET', 'SELL', '101', '100', true],
    ['TAKE_PROFIT_MARKET', 'SELL', '99', '100', false],
  ] as const)('%s %s at %s, stop %s: %s', (type, side, price, stop, want) => {
    expect(reached(type, side, price, stop)).toBe(want)
  })
})

describe('sweepTriggers', () => {
  const USER = '0x00000000000000000000000000000000000000c3'
  function setup() {
    let t = T0
    const exchange = createSimExchange({
      venue: 'aster',
      seed: 6,
      clock: { now: () => t },
    })
    exchange.faucet(USER, 10_000)
    exchange.setMark('SOLUSDT', '150')
    const state = createAsterFakeState(exchange, false, () => t)
    const stop = (cloid: string, stopPrice: string) =>
      placeOrder(state, USER, [
        ['symbol', 'SOLUSDT'],
        ['side', 'BUY'],
        ['type', 'STOP_MARKET'],
        ['quantity', '1'],
        ['stopPrice', stopPrice],
        ['newClientOrderId', cloid],
      ])
    return { exchange, state, stop, advance: (ms: number) => (t += ms) }
  }

  test('behavior: a waiting stop goes to the engine once the mark reaches it', () => {
    const { exchange, state, stop } = setup()
    const o = stop('up-1', '155')
    expect(o).toMatchObject({ status: 'NEW', type: 'STOP_MARKET' })
    sweepTriggers(state)
    expect(exchange.order(USER, 'up-1')).toBeNull()
    exchange.setMark('SOLUSDT', '156')
    sweepTriggers(state)
    expect(state.triggers.get(o.orderId)?.status).toBe('TRIGGERED')
    expect(exchange.order(USER, 'up-1')?.state).toBe('filled')
    expect(exchange.positions(USER)[0]?.size).toBe('1')
  })

  test('behavior: countdownCancelAll cancels waiting stops placed before it fires, not later ones', () => {
    const { exchange, state, stop, advance } = setup()
    const early = stop('cd-1', '170')
    countdownCancelAll(state, USER, [
      ['symbol', 'SOLUSDT'],
      ['countdownTime', '1000'],
    ])
    advance(1500)
    sweepTriggers(state)
    expect(state.triggers.get(early.orderId)?.status).toBe('CANCELED')
    const late = stop('cd-2', '170')
    advance(1500)
    sweepTriggers(state)
    expect(state.triggers.get(late.orderId)?.status).toBe('NEW')
    // reached after the countdown was stopped: it trades
    countdownCancelAll(state, USER, [
      ['symbol', 'SOLUSDT'],
      ['countdownTime', '0'],
    ])
    exchange.setMark('SOLUSDT', '171')
    sweepTriggers(state)
    expect(state.triggers.get(late.orderId)?.status).toBe('TRIGGERED')
  })
  test('behavior: the watch fires a reached stop without any request', async () => {
    const { exchange, state, stop } = setup()
    const o = stop('w-1', '152')
    const stopWatch = watchAsterFake(state, 20)
    try {
      exchange.setMark('SOLUSDT', '153')
      await new Promise((r) => setTimeout(r, 100))
      expect(state.triggers.get(o.orderId)?.status).toBe('TRIGGERED')
      expect(exchange.order(USER, 'w-1')?.state).toBe('filled')
      // the marks it saw are on the tape
      expect(state.tape.get('SOLUSDT')?.at(-1)?.c).toBe('153')
    } finally {
      stopWatch()
    }
  })
})
