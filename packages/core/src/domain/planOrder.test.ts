import { describe, expect, test } from 'vitest'
import { type OrderPlanRequest, planOrder } from './planOrder.js'

const RULES = { sizeStep: '0.01', tickSize: '0.1', maxSigFigs: null }
const QUOTE = { mark: '100' }
const request = (over: Partial<OrderPlanRequest> = {}): OrderPlanRequest => ({
  sizeBase: '1.239',
  side: 'long',
  limitPrice: null,
  slippageBps: 105,
  ...over,
})
const plain = (p: ReturnType<typeof planOrder>) => ({
  size: p.size.toFixed(),
  price: p.price.toFixed(),
  riskUsd: p.riskUsd.toFixed(),
  problem: p.problem,
})

describe('planOrder', () => {
  test('default: size floored to the step, protection price on the grid, risk at the larger price', () => {
    expect(plain(planOrder(RULES, QUOTE, request(), '1000'))).toEqual({
      size: '1.23',
      price: '101.1',
      riskUsd: '124.353',
      problem: null,
    })
  })

  test('behavior: off the grid when asked (the API check before the worker prices it)', () => {
    const p = planOrder(RULES, QUOTE, request({ onGrid: false }), '1000')
    expect(p.price.toFixed()).toBe('101.05')
  })

  test('behavior: a limit below the mark is at risk at the mark', () => {
    const p = planOrder(RULES, QUOTE, request({ limitPrice: '90' }), '1000')
    expect(plain(p)).toMatchObject({ price: '90', riskUsd: '123' })
  })

  test('behavior: a sell is protected below the mark, risk at the mark', () => {
    const p = planOrder(RULES, QUOTE, request({ side: 'short' }), '1000')
    expect(plain(p)).toMatchObject({ price: '98.9', riskUsd: '123' })
  })

  test('error: a size under one step is size_zero', () => {
    const p = planOrder(RULES, QUOTE, request({ sizeBase: '0.009' }), '1000')
    expect(p.problem).toBe('size_zero')
  })

  test('error: risk above the cap is exceeds_cap; at the cap is fine', () => {
    const at = (cap: string) =>
      planOrder(
        RULES,
        QUOTE,
        request({ limitPrice: '100', sizeBase: '10' }),
        cap,
      ).problem
    expect(at('999.99')).toBe('exceeds_cap')
    expect(at('1000')).toBeNull()
  })
})
