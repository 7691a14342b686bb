import { dec, decString } from '@dn/core'
import { expect, test } from 'vitest'
import { OWNER, simTestKit, T0 } from './simTestKit.js'

const HOUR = 3_600_000
const SHORT = '0x00000000000000000000000000000000000000b2'
const iso = (ms: number) => new Date(ms).toISOString()

test('behavior: funding settles once per hour boundary; long pays a positive rate', () => {
  const k = simTestKit({ stepMs: 60_000 })
  k.ex.faucet(SHORT, 100_000)
  k.ex.place(OWNER, k.req({ size: '0.1' }))
  k.ex.place(SHORT, k.req({ side: 'short', size: '0.1', price: '99000' }))
  const since = iso(T0)
  k.setNow(T0 + HOUR - 1)
  expect(k.ex.funding(OWNER, 'BTC', since)).toEqual([])
  const shownRate = k.ex.quote('BTC').fundingRateHourly
  k.setNow(T0 + HOUR)
  const { mark } = k.ex.quote('BTC')
  const [paid, ...more] = k.ex.funding(OWNER, 'BTC', since)
  expect(more).toEqual([])
  expect(paid).toMatchObject({
    market: 'BTC',
    time: iso(T0 + HOUR),
    rate: shownRate,
    positionSize: '0.1',
  })
  expect(Number(paid?.rate)).toBeGreaterThan(0)
  const expected = dec('-0.1').mul(mark).mul(shownRate).toDecimalPlaces(6)
  expect(paid?.amountUsd).toBe(decString(expected))
  expect(Number(paid?.amountUsd)).toBeLessThan(0)
  const [received] = k.ex.funding(SHORT, 'BTC', since)
  expect(received?.amountUsd).toBe(decString(expected.neg()))

  // reading through the hour never settles it twice
  for (let m = 1; m < 60; m++) {
    k.setNow(T0 + HOUR + m * 60_000)
    expect(k.ex.funding(OWNER, 'BTC', since)).toHaveLength(1)
  }
  k.setNow(T0 + 2 * HOUR + 1)
  const all = k.ex.funding(OWNER, 'BTC', since)
  expect(all.map((p) => p.time)).toEqual([iso(T0 + HOUR), iso(T0 + 2 * HOUR)])
  expect(k.ex.funding(OWNER, 'BTC', iso(T0 + HOUR + 1))).toHaveLength(1)
  expect(k.ex.funding(OWNER, 'ETH', since)).toEqual([])
  // less the taker fee of the opening fill (0.045% of its notional)
  const opened = k.ex.fills(OWNER, 0).filter((f) => f.market === 'BTC')[0]
  expect(opened?.maker).toBe(false)
  const fee = dec(opened?.price ?? 0)
    .mul('0.1')
    .mul('0.00045')
  const total = all.reduce((s, p) => s.add(p.amountUsd), dec(100_000).sub(fee))
  expect(k.ex.account(OWNER).collateralUsd).toBe(decString(total))
})

test('behavior: a long clock jump settles every hour it crossed', () => {
  const k = simTestKit({ stepMs: 60_000 })
  k.ex.place(OWNER, k.req({ size: '0.01' }))
  k.setNow(T0 + 5 * HOUR + 30_000)
  const times = k.ex.funding(OWNER, 'BTC', iso(T0)).map((p) => p.time)
  expect(times).toEqual([1, 2, 3, 4, 5].map((h) => iso(T0 + h * HOUR)))
})

test('behavior: funding and marks are the same whatever the call pattern', () => {
  const run = (reads: number) => {
    const k = simTestKit({ stepMs: 10_000, seed: 11 })
    k.ex.place(OWNER, k.req({ size: '0.05' }))
    for (let i = 1; i <= reads; i++) {
      k.setNow(T0 + 500 + Math.floor((3 * HOUR * i) / reads))
      k.ex.positions(OWNER)
    }
    k.setNow(T0 + 3 * HOUR + 500)
    return {
      funding: k.ex.funding(OWNER, 'BTC', iso(T0)),
      positions: k.ex.positions(OWNER),
      account: k.ex.account(OWNER),
    }
  }
  expect(run(1)).toEqual(run(500))
})
