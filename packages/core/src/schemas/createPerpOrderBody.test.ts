import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { MAX_AMOUNT } from './common.js'
import { CreatePerpOrderBody } from './createPerpOrderBody.js'
import { parseInput } from './parseInput.js'

type Order = Record<string, unknown>

const market: Order = {
  venue: 'hl',
  market: 'ETH',
  side: 'long',
  orderType: 'market',
  sizeBase: 0.5,
}
const limit: Order = { ...market, orderType: 'limit', limitPrice: 2500 }

const ok = (value: unknown) => v.safeParse(CreatePerpOrderBody, value).success

function messageOf(value: unknown): string {
  try {
    parseInput(CreatePerpOrderBody, value)
  } catch (err) {
    if (err instanceof ValidationError) return err.message
    throw err
  }
  return 'passed'
}

describe('CreatePerpOrderBody', () => {
  test('default: minimal market and limit orders pass unchanged', () => {
    expect(parseInput(CreatePerpOrderBody, market)).toEqual(market)
    expect(parseInput(CreatePerpOrderBody, limit)).toEqual(limit)
  })

  test('behavior: market accepts ioc and slippageBps 0..5000 (integers)', () => {
    expect(ok({ ...market, timeInForce: 'ioc' })).toBe(true)
    expect(ok({ ...market, slippageBps: 0 })).toBe(true)
    expect(ok({ ...market, slippageBps: 5000 })).toBe(true)
    expect(ok({ ...market, slippageBps: -1 })).toBe(false)
    expect(ok({ ...market, slippageBps: 5001 })).toBe(false)
    expect(ok({ ...market, slippageBps: 1.5 })).toBe(false)
  })

  test('error: market rejects limitPrice and non-ioc time in force', () => {
    expect(messageOf({ ...market, limitPrice: 1 })).toBe(
      'limitPrice: only allowed for limit orders',
    )
    expect(messageOf({ ...market, timeInForce: 'gtc' })).toBe(
      'timeInForce: market orders accept only "ioc"',
    )
    expect(ok({ ...market, timeInForce: 'post_only' })).toBe(false)
  })

  test('behavior: limit accepts gtc, ioc and post_only', () => {
    for (const timeInForce of ['gtc', 'ioc', 'post_only']) {
      expect(ok({ ...limit, timeInForce })).toBe(true)
    }
    expect(ok({ ...limit, timeInForce: 'fok' })).toBe(false)
  })

  test('error: limit requires limitPrice and rejects slippageBps', () => {
    const { limitPrice: _gone, ...noPrice } = limit
    expect(messageOf(noPrice)).toBe('limitPrice: is required')
    expect(messageOf({ ...limit, slippageBps: 100 })).toBe(
      'slippageBps: only allowed for market orders',
    )
  })

  test.each([
    ['sizeBase', market, Number.MIN_VALUE, 0],
    ['sizeBase', market, MAX_AMOUNT, MAX_AMOUNT + 1],
    ['limitPrice', limit, 0.000001, 0],
    ['limitPrice', limit, MAX_AMOUNT, MAX_AMOUNT + 1],
    ['expirySeconds', market, 1, 0],
    ['expirySeconds', market, 86_400, 86_401],
    ['expirySeconds', limit, 60, 60.5],
  ])('behavior: %s bound (case %#)', (key, order, inside, outside) => {
    expect(ok({ ...order, [key]: inside })).toBe(true)
    expect(ok({ ...order, [key]: outside })).toBe(false)
  })

  test('error: discriminator, side, venue and reduceOnly types', () => {
    expect(messageOf({ ...market, orderType: 'stop' })).toBe(
      'orderType: must be one of "market", "limit"',
    )
    const { orderType: _gone, ...noType } = market
    expect(messageOf(noType)).toBe('orderType: is required')
    expect(ok({ ...market, side: 'buy' })).toBe(false)
    expect(ok({ ...market, venue: 'lighter_mainnet' })).toBe(false)
    expect(ok({ ...market, reduceOnly: 'false' })).toBe(false)
    expect(ok({ ...market, reduceOnly: true })).toBe(true)
  })

  test('error: unknown field', () => {
    expect(messageOf({ ...limit, leverage: 5 })).toBe(
      'unknown field "leverage"',
    )
  })
})

const venue = fc.constantFrom('aster', 'hl', 'lighter', 'lighter-mainnet')
const amount = fc.double({ min: 1e-9, max: MAX_AMOUNT, noNaN: true })
const common = {
  venue,
  market: fc.stringMatching(/^[A-Za-z0-9:_-]{1,64}$/),
  side: fc.constantFrom('long', 'short'),
  sizeBase: amount,
  reduceOnly: fc.boolean(),
  expirySeconds: fc.integer({ min: 1, max: 86_400 }),
}
const commonKeys = ['venue', 'market', 'side', 'sizeBase'] as const

const validMarket = fc.record(
  {
    ...common,
    orderType: fc.constant('market'),
    timeInForce: fc.constant('ioc'),
    slippageBps: fc.integer({ min: 0, max: 5000 }),
  },
  { requiredKeys: [...commonKeys, 'orderType'] },
)
const validLimit = fc.record(
  {
    ...common,
    orderType: fc.constant('limit'),
    limitPrice: amount,
    timeInForce: fc.constantFrom('gtc', 'ioc', 'post_only'),
  },
  { requiredKeys: [...commonKeys, 'orderType', 'limitPrice'] },
)
const validOrder = fc.oneof(validMarket, validLimit)

/** Each mutation breaks exactly one rule of the contract. */
const mutations: ((order: Order) => Order)[] = [
  (o) =>
    o.orderType === 'market'
      ? { ...o, limitPrice: 100 }
      : (({ limitPrice: _x, ...rest }) => rest)(o),
  (o) =>
    o.orderType === 'market'
      ? { ...o, timeInForce: 'gtc' }
      : { ...o, slippageBps: 10 },
  (o) => ({ ...o, sizeBase: 0 }),
  (o) => ({ ...o, sizeBase: MAX_AMOUNT * 2 }),
  (o) => ({ ...o, expirySeconds: 86_401 }),
  (o) => ({ ...o, expirySeconds: 0.5 }),
  (o) =>
    o.orderType === 'market'
      ? { ...o, slippageBps: 5001 }
      : { ...o, limitPrice: -1 },
  (o) => ({ ...o, side: 'sell' }),
  (o) => ({ ...o, venue: 'binance' }),
  (o) => ({ ...o, orderType: 'stop_limit' }),
  (o) => ({ ...o, market: '' }),
  (o) => ({ ...o, reduceOnly: 1 }),
  (o) => ({ ...o, extra: true }),
  (o) => (({ sizeBase: _x, ...rest }) => rest)(o),
]

describe('CreatePerpOrderBody properties', () => {
  test('property: random valid orders pass', () => {
    fc.assert(fc.property(validOrder, (order) => ok(order)))
  })

  test('property: breaking any one rule fails', () => {
    fc.assert(
      fc.property(
        validOrder,
        fc.integer({ min: 0, max: mutations.length - 1 }),
        (order, index) => !ok(mutations[index]?.(order)),
      ),
    )
  })

  test('property: any extra key fails', () => {
    const known = new Set([
      ...Object.keys(common),
      'orderType',
      'limitPrice',
      'timeInForce',
      'slippageBps',
    ])
    fc.assert(
      fc.property(
        validOrder,
        fc
          .string({ minLength: 1 })
          .filter((k) => !known.has(k) && k !== '__proto__'),
        (order, key) => !ok({ ...order, [key]: 1 }),
      ),
    )
  })
})
