import {
  dec,
  type OrderSide,
  roundPrice,
  type TimeInForce,
  VenueRejectedError,
} from '@dn/core'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { OWNER, T0 } from './simTestKit.js'
import {
  createSimVenues,
  type SimVenues,
  type SimVenuesSnapshot,
} from './simVenues.js'

const OTHER = '0x00000000000000000000000000000000000000b2'
const owners = [OWNER, OTHER] as const

const action = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    venue: fc.constantFrom('hl' as const, 'aster' as const),
    who: fc.integer({ min: 0, max: 1 }),
    side: fc.constantFrom<OrderSide>('long', 'short'),
    units: fc.integer({ min: 1, max: 300 }),
    bps: fc.integer({ min: -30, max: 30 }),
    tif: fc.constantFrom<TimeInForce>('ioc', 'gtc'),
    cloid: fc.integer({ min: 0, max: 9 }),
  }),
  fc.record({
    kind: fc.constant('cancel' as const),
    who: fc.integer({ min: 0, max: 1 }),
    cloid: fc.integer({ min: 0, max: 9 }),
  }),
  fc.record({
    kind: fc.constant('wait' as const),
    ms: fc.integer({ min: 0, max: 90_000 }),
  }),
)

const SYMBOL = { hl: 'BTC', aster: 'BTCUSDT' } as const

function venues(
  clock: { now(): number },
  restore?: SimVenuesSnapshot,
): SimVenues {
  return createSimVenues({
    seed: 3,
    clock,
    sharedUnderlying: true,
    // a minute: funding settles within the runs
    fundingIntervalMs: 60_000,
    ...(restore ? { restore } : {}),
  })
}

test('property: a snapshot through JSON restores the same venues, which then go on exactly as the saved ones', () => {
  fc.assert(
    fc.property(
      fc.array(action, { maxLength: 25 }),
      fc.integer({ min: 0, max: 600_000 }),
      (acts, later) => {
        let now = T0 + 500
        const clock = { now: () => now }
        const sim = venues(clock)
        for (const o of owners) {
          sim.faucet('hl', o, 50_000)
          sim.faucet('aster', o, 50_000)
        }
        for (const a of acts) {
          try {
            if (a.kind === 'wait') now += a.ms
            if (a.kind === 'cancel') {
              sim.exchanges.hl.cancel(owners[a.who] ?? OWNER, `c${a.cloid}`)
            }
            if (a.kind === 'place') {
              const ex = sim.exchanges[a.venue]
              const symbol = SYMBOL[a.venue]
              const rules = ex.rules(symbol)
              if (!rules) throw new RangeError(`${symbol} not listed`)
              const mark = dec(ex.quote(symbol).mark)
              const price = roundPrice(
                rules,
                mark.mul(dec(10_000 + a.bps).div(10_000)),
                a.side === 'long' ? 'up' : 'down',
              )
              ex.place(owners[a.who] ?? OWNER, {
                market: symbol,
                side: a.side,
                size: dec(a.units).div(1000).toString(),
                price: price.toString(),
                timeInForce: a.tif,
                reduceOnly: false,
                clientOrderId: `c${a.cloid}`,
              })
            }
          } catch (err) {
            if (!(err instanceof VenueRejectedError)) throw err
          }
        }
        const saved = sim.toSnapshot()
        const restored = venues(clock, JSON.parse(JSON.stringify(saved)))
        expect(restored.toSnapshot()).toEqual(saved)
        // time alone (walks, fills, funding) replays the same on both
        now += later
        expect(restored.toSnapshot()).toEqual(sim.toSnapshot())
        for (const o of owners) {
          expect(restored.exchanges.hl.positions(o)).toEqual(
            sim.exchanges.hl.positions(o),
          )
          expect(restored.exchanges.aster.account(o)).toEqual(
            sim.exchanges.aster.account(o),
          )
        }
      },
    ),
    { numRuns: 40 },
  )
})

test('behavior: every venue quotes one underlying per asset, each within a few bps of the others', () => {
  let now = T0 + 500
  const sim = venues({ now: () => now })
  for (let minute = 0; minute < 30; minute++) {
    now += 60_000
    const marks = [
      sim.exchanges.hl.quote('BTC').mark,
      sim.exchanges.lighter.quote('BTC').mark,
      sim.exchanges.aster.quote('BTCUSDT').mark,
    ].map((m) => dec(m))
    const lo = marks.reduce((a, b) => (a.lt(b) ? a : b))
    const hi = marks.reduce((a, b) => (a.gt(b) ? a : b))
    // basis up to ±5 bps and noise ±1 bp a venue, plus grid rounding
    expect(hi.sub(lo).div(lo).mul(10_000).toNumber()).toBeLessThanOrEqual(13)
  }
  // the walk moved: the venues moved with it
  expect(sim.exchanges.hl.quote('BTC').mark).not.toBe('100000')
  expect(sim.exchanges.hl.quote('BTC').nextFundingAt).toBe(
    Math.floor(now / 60_000) * 60_000 + 60_000,
  )
})
