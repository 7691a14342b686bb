import { expect, test } from 'vitest'
import { OWNER, simTestKit, T0 } from './simTestKit.js'

const HOUR = 3_600_000

test('behavior: settled rates are the rates funding was paid at, none ahead of now', () => {
  const k = simTestKit()
  k.ex.place(OWNER, k.req())
  k.advance(3 * HOUR)
  const rates = k.ex.fundingRates('BTC', T0 + 1, T0 + 10 * HOUR, 100)
  expect(rates.map((r) => r.time)).toEqual([
    T0 + HOUR,
    T0 + 2 * HOUR,
    T0 + 3 * HOUR,
  ])
  const paid = k.ex.funding(OWNER, 'BTC', new Date(T0).toISOString())
  expect(paid.map((p) => p.rate)).toEqual(rates.map((r) => r.rate))
  expect(k.ex.fundingRates('BTC', T0 + 1, T0 + 10 * HOUR, 2)).toHaveLength(2)
  // a period before the engine started is still told
  expect(k.ex.fundingRates('BTC', T0 - HOUR, T0, 10)).toHaveLength(2)
})
