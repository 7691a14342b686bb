import { UnavailableError, VENUES } from '@dn/core'
import { expect, test, vi } from 'vitest'
import { createSimMarketData } from './createSimMarketData.js'
import { createSimVenues } from './simVenues.js'

const OWNER = '0x00000000000000000000000000000000000000c3'

test('default: one engine and adapter per venue id, faucet of USD 100 000', () => {
  let now = Date.UTC(2026, 0, 1)
  const sim = createSimVenues({ seed: 9, clock: { now: () => now } })
  expect(Object.keys(sim.exchanges).sort()).toEqual([...VENUES].sort())
  for (const venue of VENUES) {
    expect(sim.adapters[venue].venue).toBe(venue)
    expect(sim.faucet(venue, OWNER)).toEqual({ accountIndex: 1 })
    expect(sim.exchanges[venue].account(OWNER).collateralUsd).toBe('100000')
  }
  expect(sim.faucet('hl', '0xdd', 5)).toEqual({ accountIndex: 2 })
  now += 60_000
  expect(sim.exchanges.hl.quote('BTC').mark).not.toBe('100000')
})

test('behavior: market data answers from the adapters', async () => {
  const sim = createSimVenues({ clock: { now: () => 0 } })
  expect(await sim.marketData.rules('aster', 'BTCUSDT')).toMatchObject({
    venue: 'aster',
    sizeStep: '0.001',
  })
  expect(await sim.marketData.rules('hl', 'BTCUSDT')).toBeUndefined()
  expect(await sim.marketData.quote('hl', 'ETH')).toEqual(
    await sim.adapters.hl.quote('ETH'),
  )
  sim.exchanges.lighter.setFaults({ outage: true })
  const err = await sim.marketData.quote('lighter', 'BTC').catch((e) => e)
  expect(err).toBeInstanceOf(UnavailableError)
  expect(err.code).toBe('market_data_unavailable')
})

test('behavior: createSimMarketData keeps listed marks until pinned', async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  try {
    const md = createSimMarketData()
    vi.setSystemTime(Date.now() + 3_600_000)
    expect((await md.quote('hl', 'BTC')).mark).toBe('100000')
  } finally {
    vi.useRealTimers()
  }
  const md = createSimMarketData()
  md.setMark('hl', 'BTC', '123456')
  expect((await md.quote('hl', 'BTC')).mark).toBe('123456')
  expect((await md.quote('lighter', 'BTC')).mark).toBe('100000')
  expect(() => md.setMark('aster', 'BTC', '1')).toThrow(RangeError)
  expect(await md.rules('hl', 'DOGE')).toBeUndefined()
})
