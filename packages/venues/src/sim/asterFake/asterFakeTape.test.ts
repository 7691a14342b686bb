import { dec, decString } from '@dn/core'
import { describe, expect, test } from 'vitest'
import { createSimExchange } from '../simExchange.js'
import { fundingRateHistory } from './asterFakeFundingHistory.js'
import { klines } from './asterFakeKlines.js'
import { createAsterFakeState } from './asterFakeState.js'
import { observeMarks } from './asterFakeTape.js'
import { ticker24hr } from './asterFakeTicker24hr.js'

/** A fake's protocol state over an engine on a hand-moved clock. */
function setup(start = Date.UTC(2026, 0, 1, 10, 0, 0)) {
  let t = start
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 9,
    clock: { now: () => t },
  })
  const state = createAsterFakeState(exchange, false, () => t)
  /** moves the clock to `at`, pins ETH's mark there and lets the fake see it */
  const seeAt = (at: number, mark: string) => {
    t = at
    exchange.setMark('ETHUSDT', mark)
    observeMarks(state)
  }
  return { exchange, state, seeAt, start }
}

const q = (o: Record<string, string>) => new URLSearchParams(o)

describe('asterFake tape: klines, 24 h ticker, funding history', () => {
  test('klines: OHLC from the marks seen, flat candles between, volume from fills', () => {
    const { exchange, state, seeAt, start } = setup()
    seeAt(start + 5_000, '3500')
    seeAt(start + 20_000, '3520')
    seeAt(start + 40_000, '3490')
    exchange.faucet('0xaa', 10_000)
    exchange.place('0xaa', {
      market: 'ETHUSDT',
      side: 'long',
      size: '0.1',
      price: '3600',
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: 'k1',
    })
    seeAt(start + 150_000, '3510')
    const rows = klines(state, q({ symbol: 'ETHUSDT', interval: '1m' }))
    expect(rows.map((r) => (r as unknown[]).slice(0, 6))).toEqual([
      [start, '3500', '3520', '3490', '3490', '0.1'],
      // no mark seen in this minute: the last close, no trades
      [start + 60_000, '3490', '3490', '3490', '3490', '0'],
      [start + 120_000, '3510', '3510', '3510', '3510', '0'],
    ])
    const [first] = rows as unknown[][]
    const fill = exchange.fills('0xaa', 0)[0]
    expect(first?.[6]).toBe(start + 59_999)
    expect(first?.[7]).toBe(decString(dec(fill?.price ?? '0').mul('0.1')))
    expect(first?.[8]).toBe(1)
    // the first `limit` from startTime; an interval Aster does not have
    expect(
      klines(
        state,
        q({
          symbol: 'ETHUSDT',
          interval: '1m',
          startTime: String(start),
          limit: '1',
        }),
      ),
    ).toHaveLength(1)
    expect(() =>
      klines(state, q({ symbol: 'ETHUSDT', interval: '7m' })),
    ).toThrow('Invalid interval.')
  })

  test('ticker/24hr: open is the mark at the window start, last the current mark', () => {
    const { state, seeAt, start } = setup()
    seeAt(start, '3400')
    seeAt(start + 3_600_000, '3300')
    seeAt(start + 25 * 3_600_000, '3450')
    // 3400 left the rolling window; the mark at its start was 3300
    expect(ticker24hr(state, 'ETHUSDT')).toMatchObject({
      openPrice: '3300',
      lastPrice: '3450',
      highPrice: '3450',
      lowPrice: '3300',
      priceChange: '150',
      priceChangePercent: '4.545',
      volume: '0',
      count: 0,
    })
  })

  test('fundingRate: the rate published before each passed settlement, ascending', () => {
    const { exchange, state, seeAt, start } = setup()
    const interval = exchange.fundingIntervalMs
    seeAt(start + 1_000, '3500')
    const firstAt = exchange.nextFundingAt()
    const rate = (Number(exchange.quote('ETHUSDT').fundingRateHourly) * 8)
      .toFixed(12)
      .replace(/\.?0+$/, '')
    expect(fundingRateHistory(state, q({ symbol: 'ETHUSDT' }))).toEqual([])
    seeAt(firstAt + interval - 1, '3500')
    seeAt(firstAt + interval + 1, '3500')
    const rows = fundingRateHistory(state, q({ symbol: 'ETHUSDT' }))
    expect(rows.map((r) => r.fundingTime)).toEqual([
      firstAt,
      firstAt + interval,
    ])
    expect(Number(rows[0]?.fundingRate)).toBeCloseTo(Number(rate), 12)
    expect(
      fundingRateHistory(state, q({ symbol: 'ETHUSDT', limit: '1' })),
    ).toEqual([rows[1]])
  })
})
