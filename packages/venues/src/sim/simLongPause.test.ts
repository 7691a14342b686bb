import { expect, test } from 'vitest'
import { MAX_REPLAY_MS } from './simStateSnapshot.js'
import { OWNER, T0 } from './simTestKit.js'
import { createSimVenues, type SimVenuesSnapshot } from './simVenues.js'

const DAY = 86_400_000

/**
 * A service stopped for a week: the restored venues replay the last
 * MAX_REPLAY_MS only (the rest is a pause), so the first request does not
 * stall on a week of one-second steps.
 */
test('behavior: a week-long stop replays six hours, pays funding for those only, and keeps positions', () => {
  let now = T0
  const clock = { now: () => now }
  const make = (restore?: SimVenuesSnapshot) =>
    createSimVenues({
      seed: 5,
      clock,
      sharedUnderlying: true,
      ...(restore ? { restore } : {}),
    })
  const sim = make()
  sim.exchanges.hl.faucet(OWNER, 10_000)
  const mark = Number(sim.exchanges.hl.quote('BTC').mark)
  sim.exchanges.hl.place(OWNER, {
    market: 'BTC',
    side: 'long',
    size: '0.01',
    price: String(Math.round(mark * 1.01)),
    timeInForce: 'ioc',
    reduceOnly: false,
    clientOrderId: 'c1',
  })
  const saved = JSON.parse(
    JSON.stringify(sim.toSnapshot()),
  ) as SimVenuesSnapshot

  now = T0 + 7 * DAY
  const restored = make(saved)
  restored.exchanges.hl.quote('BTC')
  expect(restored.exchanges.hl.positions(OWNER).map((p) => p.size)).toEqual([
    '0.01',
  ])
  // hourly funding: the six replayed settlements are paid, not a week's
  // (a week replayed took over 10 s; what was replayed is counted here,
  // not timed, so a busy machine cannot fail it)
  const payments = restored.exchanges.hl.funding(
    OWNER,
    'BTC',
    new Date(T0).toISOString(),
  )
  expect(payments.length).toBeGreaterThanOrEqual(5)
  expect(payments.length).toBeLessThanOrEqual(7)
  expect(MAX_REPLAY_MS).toBe(6 * 3_600_000)
})
