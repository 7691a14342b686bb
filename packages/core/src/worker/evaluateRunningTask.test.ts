import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { LedgerHolder } from '../domain/positionLedger.js'
import type { TaskRecord } from '../domain/task.js'
import {
  EMPTY_ENGINE_STATE,
  type Leg,
  type TaskEngineState,
} from '../domain/taskEngineState.js'
import { RequestBudgetError } from '../errors/venue.js'
import type { MarketQuote } from '../ports/marketData.js'
import { task } from '../ports/store.contract.js'
import type { VenuePosition } from '../ports/venueAdapter.js'
import { dec } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { ledgerHolders, legMarket } from './accountMarketLedger.js'
import { confirmRunningVerdict } from './confirmRunningVerdict.js'
import {
  changedShows,
  closeStart,
  evaluateRunningTask,
  type LegReading,
  type RunningVerdict,
} from './evaluateRunningTask.js'
import { retryNote } from './retryNote.js'
import { fundingApyPct } from './taskMarkets.js'

const NOW = Date.UTC(2030, 5, 1, 12)
const GRACE_MS = 3_600_000

/** Hourly rates whose APY (short − long) × 876 000 is 87.6 %: above 0.1. */
const EARNING = { long: '0', short: '0.0001' } as const
/** Hourly rates whose APY is −87.6 %: below the fixture's minimum of 0.1. */
const PAYING = { long: '0.0001', short: '0' } as const

const ENGINE: TaskEngineState = {
  op: null,
  seq: 4,
  fundingSince: '2030-05-31T00:00:00.000Z',
  fundingBelowSince: null,
  fundingApy: '87.6',
}

function quote(leg: Leg, over: Partial<MarketQuote> = {}): MarketQuote {
  return leg === 'long'
    ? {
        venue: 'hl',
        symbol: 'BTC',
        mark: '100',
        bid: '99.9',
        ask: '100.1',
        fundingRateHourly: EARNING.long,
        ...over,
      }
    : {
        venue: 'aster',
        symbol: 'BTCUSDT',
        mark: '100',
        bid: '99.9',
        ask: '100.1',
        fundingRateHourly: EARNING.short,
        ...over,
      }
}

function position(leg: Leg, over: Partial<VenuePosition> = {}): VenuePosition {
  return {
    market: leg === 'long' ? 'BTC' : 'BTCUSDT',
    size: leg === 'long' ? '1' : '-1',
    entryPrice: '100',
    markPrice: '100',
    leverage: '3',
    marginMode: 'cross',
    liquidationPrice: null,
    ...over,
  }
}

interface LegOver {
  quote?: Partial<MarketQuote>
  /** null: the account has no position in the leg's market */
  position?: Partial<VenuePosition> | null
}

/** Both legs healthy: a position each, no known liquidation, funding earned. */
function legs(
  over: { long?: LegOver; short?: LegOver } = {},
): Record<Leg, LegReading> {
  const reading = (l: Leg): LegReading => {
    const o = over[l] ?? {}
    return {
      quote: quote(l, o.quote),
      position: o.position === null ? undefined : position(l, o.position),
    }
  }
  return { long: reading('long'), short: reading('short') }
}

/** Funding rates for both legs, e.g. PAYING. */
function funding(rates: { long: string; short: string }): {
  long: LegOver
  short: LegOver
} {
  return {
    long: { quote: { fundingRateHourly: rates.long } },
    short: { quote: { fundingRateHourly: rates.short } },
  }
}

function running(over: Partial<TaskRecord> = {}): TaskRecord {
  return task({
    status: 'running',
    longSize: '1',
    shortSize: '1',
    engineState: ENGINE,
    ...over,
  })
}

const evaluate = (
  t: TaskRecord,
  l: Record<Leg, LegReading> = legs(),
  now = NOW,
  grace = GRACE_MS,
) => evaluateRunningTask(t, l, now, grace)

describe('the fixtures', () => {
  test('earning rates are above the task minimum and paying rates below it', () => {
    const min = running().minFundingApy
    const earning = legs(funding(EARNING))
    const paying = legs(funding(PAYING))
    expect(fundingApyPct(earning.long.quote, earning.short.quote).gt(min)).toBe(
      true,
    )
    expect(fundingApyPct(paying.long.quote, paying.short.quote).lt(min)).toBe(
      true,
    )
  })
})

describe('evaluateRunningTask', () => {
  test('a healthy task closes on no rule and is near no threshold', () => {
    const v = evaluate(
      running({ liqProtectionPct: '10', sizeMismatchPct: '10' }),
    )
    expect(v.close).toBeNull()
    expect(v.liquidatedLeg).toBeNull()
    expect(v.state).toEqual({
      nearThreshold: false,
      fundingBelowSince: null,
      fundingApy: '87.6',
    })
  })

  describe('leg liquidated', () => {
    test.each([
      ['long', 'no position'],
      ['short', 'no position'],
      ['long', 'a position of size 0'],
      ['short', 'a position of size 0'],
    ] as const)(
      'a %s leg with a recorded size but %s in the account closes as leg_liquidated',
      (leg, how) => {
        const v = evaluate(
          running(),
          legs({
            [leg]: { position: how === 'no position' ? null : { size: '0' } },
          }),
        )
        expect(v.close).toBe('leg_liquidated')
        expect(v.liquidatedLeg).toBe(leg)
      },
    )

    test('a position of size -0 or 0.000 counts as gone', () => {
      for (const size of ['-0', '0.000']) {
        const v = evaluate(running(), legs({ short: { position: { size } } }))
        expect(v.close).toBe('leg_liquidated')
        expect(v.liquidatedLeg).toBe('short')
      }
    })

    test('a leg with no recorded size is not liquidated when the account has no position', () => {
      for (const size of [null, '0']) {
        const v = evaluate(
          running({ longSize: size, shortSize: size }),
          legs({ long: { position: null }, short: { position: null } }),
        )
        expect(v.close).toBeNull()
        expect(v.liquidatedLeg).toBeNull()
      }
    })

    test('the long leg is named first when both positions are gone', () => {
      const v = evaluate(
        running(),
        legs({ long: { position: null }, short: { position: null } }),
      )
      expect(v.close).toBe('leg_liquidated')
      expect(v.liquidatedLeg).toBe('long')
    })

    test('other close reasons leave liquidatedLeg null', () => {
      const protection = evaluate(
        running({ liqProtectionPct: '10' }),
        legs({ long: { position: { liquidationPrice: '95' } } }),
      )
      expect(protection.close).toBe('liquidation_protection')
      expect(protection.liquidatedLeg).toBeNull()
      const mismatch = evaluate(
        running({ sizeMismatchPct: '10', shortSize: '0.5' }),
      )
      expect(mismatch.close).toBe('size_mismatch')
      expect(mismatch.liquidatedLeg).toBeNull()
      const fundingLow = evaluate(running(), legs(funding(PAYING)), NOW, 0)
      expect(fundingLow.close).toBe('funding_below_min')
      expect(fundingLow.liquidatedLeg).toBeNull()
    })
  })

  describe('liquidation protection', () => {
    const withLiq = (leg: Leg, liquidationPrice: string, mark = '100') =>
      legs({ [leg]: { quote: { mark }, position: { liquidationPrice } } })

    test('a liquidation closer than liqProtectionPct closes as liquidation_protection', () => {
      const t = running({ liqProtectionPct: '10' })
      // long: liquidation below the mark; short: above it
      for (const [leg, liq] of [
        ['long', '95'],
        ['short', '105'],
        ['long', '90.01'],
      ] as const) {
        const v = evaluate(t, withLiq(leg, liq))
        expect(v.close).toBe('liquidation_protection')
        expect(v.state.nearThreshold).toBe(true)
      }
    })

    test('a liquidation exactly liqProtectionPct away does not close but is near', () => {
      const v = evaluate(
        running({ liqProtectionPct: '10' }),
        withLiq('long', '90'),
      )
      expect(v.close).toBeNull()
      expect(v.state.nearThreshold).toBe(true)
    })

    test('a liquidation within twice liqProtectionPct does not close but is near', () => {
      const t = running({ liqProtectionPct: '10' })
      for (const [leg, liq] of [
        ['long', '85'],
        ['long', '80.01'],
        ['short', '115'],
        ['short', '119.99'],
      ] as const) {
        const v = evaluate(t, withLiq(leg, liq))
        expect(v.close).toBeNull()
        expect(v.state.nearThreshold).toBe(true)
      }
    })

    test('a liquidation twice liqProtectionPct away or farther is not near', () => {
      const t = running({ liqProtectionPct: '10' })
      for (const [leg, liq] of [
        ['long', '80'],
        ['long', '75'],
        ['short', '120'],
        ['short', '300'],
      ] as const) {
        const v = evaluate(t, withLiq(leg, liq))
        expect(v.close).toBeNull()
        expect(v.state.nearThreshold).toBe(false)
      }
    })

    test('the distance is measured from the leg mark, in percent of it', () => {
      // 5 below a mark of 50 is 10 %: not under 10, but under 20
      const t = running({ liqProtectionPct: '10' })
      const at50 = evaluate(t, withLiq('long', '45', '50'))
      expect(at50.close).toBeNull()
      expect(at50.state.nearThreshold).toBe(true)
      // 5 below a mark of 200 is 2.5 %
      const at200 = evaluate(t, withLiq('long', '195', '200'))
      expect(at200.close).toBe('liquidation_protection')
    })

    test('the nearer leg decides', () => {
      const t = running({ liqProtectionPct: '10' })
      const v = evaluate(
        t,
        legs({
          long: { position: { liquidationPrice: '50' } },
          short: { position: { liquidationPrice: '104' } },
        }),
      )
      expect(v.close).toBe('liquidation_protection')
      const w = evaluate(
        t,
        legs({
          long: { position: { liquidationPrice: '96' } },
          short: { position: { liquidationPrice: '150' } },
        }),
      )
      expect(w.close).toBe('liquidation_protection')
    })

    test('no rule and no nearness without liqProtectionPct or a known liquidation price', () => {
      const off = evaluate(running(), withLiq('long', '99'))
      expect(off.close).toBeNull()
      expect(off.state.nearThreshold).toBe(false)
      const unknown = evaluate(running({ liqProtectionPct: '10' }), legs())
      expect(unknown.close).toBeNull()
      expect(unknown.state.nearThreshold).toBe(false)
    })
  })

  describe('size mismatch', () => {
    test('legs apart by more than sizeMismatchPct close as size_mismatch', () => {
      for (const [longSize, shortSize] of [
        ['1', '0.85'],
        ['0.85', '1'],
        ['2', '1.79'],
      ] as const) {
        const v = evaluate(
          running({ sizeMismatchPct: '10', longSize, shortSize }),
        )
        expect(v.close).toBe('size_mismatch')
        expect(v.state.nearThreshold).toBe(true)
      }
    })

    test('legs apart by exactly sizeMismatchPct of the larger leg do not close but are near', () => {
      for (const [longSize, shortSize] of [
        ['1', '0.9'],
        ['0.9', '1'],
      ] as const) {
        const v = evaluate(
          running({ sizeMismatchPct: '10', longSize, shortSize }),
        )
        expect(v.close).toBeNull()
        expect(v.state.nearThreshold).toBe(true)
      }
    })

    test('legs apart by more than half of sizeMismatchPct are near', () => {
      for (const shortSize of ['0.93', '0.949']) {
        const v = evaluate(
          running({ sizeMismatchPct: '10', longSize: '1', shortSize }),
        )
        expect(v.close).toBeNull()
        expect(v.state.nearThreshold).toBe(true)
      }
    })

    test('legs apart by half of sizeMismatchPct or less are not near', () => {
      for (const [longSize, shortSize] of [
        ['1', '0.95'],
        ['0.95', '1'],
        ['1', '0.97'],
        ['1', '1'],
      ] as const) {
        const v = evaluate(
          running({ sizeMismatchPct: '10', longSize, shortSize }),
        )
        expect(v.close).toBeNull()
        expect(v.state.nearThreshold).toBe(false)
      }
    })

    test('without sizeMismatchPct the legs may differ freely', () => {
      const v = evaluate(running({ longSize: '1', shortSize: '0.5' }))
      expect(v.close).toBeNull()
      expect(v.state.nearThreshold).toBe(false)
    })
  })

  describe('order of urgency', () => {
    test('leg_liquidated, then liquidation_protection, then size_mismatch, then funding_below_min', () => {
      const t = running({
        liqProtectionPct: '10',
        sizeMismatchPct: '10',
        longSize: '1',
        shortSize: '0.5',
        engineState: { ...ENGINE, fundingBelowSince: msToIso(NOW - GRACE_MS) },
      })
      const paying = funding(PAYING)
      const all = legs({
        long: { ...paying.long, position: null },
        short: { ...paying.short, position: { liquidationPrice: '101' } },
      })
      expect(evaluate(t, all).close).toBe('leg_liquidated')

      const noLiquidation = legs({
        long: paying.long,
        short: { ...paying.short, position: { liquidationPrice: '101' } },
      })
      expect(evaluate(t, noLiquidation).close).toBe('liquidation_protection')

      const farLiquidation = legs(paying)
      expect(evaluate(t, farLiquidation).close).toBe('size_mismatch')

      const matched = { ...t, shortSize: '1' }
      expect(evaluate(matched, farLiquidation).close).toBe('funding_below_min')

      expect(evaluate(matched, legs()).close).toBeNull()
    })
  })

  describe('funding below the minimum', () => {
    const paying = () => legs(funding(PAYING))

    test('is noted at now on first sight, without closing inside the grace', () => {
      for (const engineState of [ENGINE, null]) {
        const v = evaluate(running({ engineState }), paying())
        expect(v.state.fundingBelowSince).toBe(msToIso(NOW))
        expect(v.close).toBeNull()
      }
    })

    test('keeps the time it was first seen from the engine state', () => {
      const since = msToIso(NOW - 60_000)
      const v = evaluate(
        running({ engineState: { ...ENGINE, fundingBelowSince: since } }),
        paying(),
      )
      expect(v.state.fundingBelowSince).toBe(since)
      expect(v.close).toBeNull()
    })

    test('closes as funding_below_min once the grace has passed, not before', () => {
      const at = (ms: number) =>
        running({ engineState: { ...ENGINE, fundingBelowSince: msToIso(ms) } })
      expect(evaluate(at(NOW - GRACE_MS + 1), paying()).close).toBeNull()
      expect(evaluate(at(NOW - GRACE_MS), paying()).close).toBe(
        'funding_below_min',
      )
      const later = evaluate(at(NOW - 10 * GRACE_MS), paying())
      expect(later.close).toBe('funding_below_min')
      expect(later.state.fundingBelowSince).toBe(msToIso(NOW - 10 * GRACE_MS))
    })

    test('closes on first sight when there is no grace', () => {
      const v = evaluate(running(), paying(), NOW, 0)
      expect(v.close).toBe('funding_below_min')
      expect(v.state.fundingBelowSince).toBe(msToIso(NOW))
    })

    test('is cleared when funding recovers', () => {
      const t = running({
        engineState: {
          ...ENGINE,
          fundingBelowSince: msToIso(NOW - 10 * GRACE_MS),
        },
      })
      const v = evaluate(t, legs(funding(EARNING)))
      expect(v.state.fundingBelowSince).toBeNull()
      expect(v.close).toBeNull()
    })

    test('funding exactly at the minimum is not below it', () => {
      // 0.0001 × 8760 × 100 = 87.6
      const t = running({
        minFundingApy: '87.6',
        engineState: {
          ...ENGINE,
          fundingBelowSince: msToIso(NOW - 10 * GRACE_MS),
        },
      })
      const v = evaluate(t, legs(funding(EARNING)))
      expect(v.state.fundingBelowSince).toBeNull()
      expect(v.close).toBeNull()
      const under = evaluate(
        { ...t, minFundingApy: '87.61' },
        legs(funding(EARNING)),
      )
      expect(under.close).toBe('funding_below_min')
    })

    test('never applies when autoClose is false', () => {
      const t = running({
        autoClose: false,
        engineState: {
          ...ENGINE,
          fundingBelowSince: msToIso(NOW - 10 * GRACE_MS),
        },
      })
      const v = evaluate(t, paying(), NOW, 0)
      expect(v.state.fundingBelowSince).toBeNull()
      expect(v.close).toBeNull()
    })
  })

  describe('shows', () => {
    test('the marks as prices', () => {
      const v = evaluate(
        running(),
        legs({
          long: { quote: { mark: '101.5' } },
          short: { quote: { mark: '101.75' } },
        }),
      )
      expect(v.shows.longPrice).toBe('101.5')
      expect(v.shows.shortPrice).toBe('101.75')
    })

    test("the positions' leverage and margin mode", () => {
      const v = evaluate(
        running({
          longLeverage: '2',
          shortLeverage: '2',
          longMarginMode: 'cross',
          shortMarginMode: 'cross',
        }),
        legs({
          long: { position: { leverage: '5', marginMode: 'isolated' } },
          short: { position: { leverage: '7', marginMode: 'cross' } },
        }),
      )
      expect(v.shows).toMatchObject({
        longLeverage: '5',
        shortLeverage: '7',
        longMarginMode: 'isolated',
        shortMarginMode: 'cross',
      })
    })

    test("the task's leverage and margin mode when there is no position", () => {
      const v = evaluate(
        running({
          longSize: '0',
          shortSize: '0',
          longLeverage: '2',
          shortLeverage: '4',
          longMarginMode: 'isolated',
          shortMarginMode: 'cross',
        }),
        legs({
          long: { position: null },
          short: { position: { leverage: '9', marginMode: 'isolated' } },
        }),
      )
      expect(v.shows).toMatchObject({
        longLeverage: '2',
        shortLeverage: '9',
        longMarginMode: 'isolated',
        shortMarginMode: 'isolated',
      })
      const none = evaluate(
        running({ longSize: '0', shortSize: '0' }),
        legs({ long: { position: null }, short: { position: null } }),
      )
      expect(none.shows).toMatchObject({
        longLeverage: null,
        shortLeverage: null,
        longMarginMode: null,
        shortMarginMode: null,
      })
    })

    test('no error in place of a retry note', () => {
      for (const note of [
        retryNote(['hl: connection refused', 'aster: timeout']),
        retryNote(new Error('socket hang up')),
        retryNote(new RequestBudgetError('hl weight 1200/1200')),
      ]) {
        expect(note).not.toBe('')
        expect(evaluate(running({ error: note })).shows.error).toBeNull()
      }
    })

    test('any other error as it was', () => {
      for (const error of [
        'venue rejected the request: insufficient margin',
        null,
      ]) {
        expect(evaluate(running({ error })).shows.error).toBe(error)
      }
    })
  })
})

/** The task as it is once a verdict's patch is written. */
function applied(t: TaskRecord, patch: object | null): TaskRecord {
  return { ...t, ...(patch ?? {}) } as TaskRecord
}

/** A task that already shows everything `v` shows. */
function showing(t: TaskRecord, v: RunningVerdict): TaskRecord {
  return {
    ...t,
    ...v.shows,
    engineState: { ...(t.engineState ?? ENGINE), ...v.state },
  }
}

describe('closeStart', () => {
  test('no rule holds: null', () => {
    const t = running()
    expect(closeStart(t, evaluate(t))).toBeNull()
  })

  test('a rule holds: closing for its reason', () => {
    const t = running({ liqProtectionPct: '10' })
    const v = evaluate(
      t,
      legs({ short: { position: { liquidationPrice: '105' } } }),
    )
    expect(closeStart(t, v)).toEqual({
      status: 'closing',
      closeReason: 'liquidation_protection',
    })
  })

  test('a liquidated leg is booked at zero, the other kept', () => {
    const t = running()
    expect(
      closeStart(t, evaluate(t, legs({ short: { position: null } }))),
    ).toEqual({
      status: 'closing',
      closeReason: 'leg_liquidated',
      shortSize: '0',
    })
    expect(
      closeStart(t, evaluate(t, legs({ long: { position: null } }))),
    ).toEqual({
      status: 'closing',
      closeReason: 'leg_liquidated',
      longSize: '0',
    })
  })
})

describe('changedShows', () => {
  test('is null when the task already shows everything the verdict shows', () => {
    const t = running({ liqProtectionPct: '10', error: retryNote(['x']) })
    const l = legs({
      ...funding(PAYING),
      long: {
        ...funding(PAYING).long,
        position: { liquidationPrice: '85', leverage: '4' },
      },
    })
    const v = evaluate(t, l)
    expect(v.state.nearThreshold).toBe(true)
    expect(v.state.fundingBelowSince).not.toBeNull()
    expect(changedShows(t, v)).not.toBeNull()
    expect(changedShows(showing(t, v), v)).toBeNull()
  })

  test('returns only the fields that differ', () => {
    const v = evaluate(running(), legs())
    const base = showing(running(), v)
    expect(changedShows({ ...base, longPrice: '99' }, v)).toEqual({
      longPrice: '100',
    })
    expect(
      changedShows(
        { ...base, shortLeverage: '1', error: retryNote(['down']) },
        v,
      ),
    ).toEqual({ shortLeverage: '3', error: null })
    expect(changedShows({ ...base, shortMarginMode: 'isolated' }, v)).toEqual({
      shortMarginMode: 'cross',
    })
  })

  test('a verdict not near any threshold matches an engine state without nearThreshold', () => {
    const v = evaluate(running(), legs())
    expect(v.state.nearThreshold).toBe(false)
    const t = { ...running(), ...v.shows, engineState: ENGINE }
    expect(ENGINE.nearThreshold).toBeUndefined()
    expect(changedShows(t, v)).toBeNull()
  })

  test('includes the engine state, kept whole, when nearThreshold changes', () => {
    const state: TaskEngineState = {
      op: null,
      seq: 9,
      fundingSince: '2030-05-30T00:00:00.000Z',
      fundingBelowSince: null,
      fundingCheckAt: '2030-06-01T13:00:05.000Z',
      nearThreshold: false,
      fundingApy: '87.6',
    }
    const t = running({ liqProtectionPct: '10', engineState: state })
    const v = evaluate(
      t,
      legs({ long: { position: { liquidationPrice: '85' } } }),
    )
    const patch = changedShows({ ...t, ...v.shows }, v)
    expect(patch).toEqual({ engineState: { ...state, nearThreshold: true } })

    // and back when it is no longer near
    const near = {
      ...t,
      ...v.shows,
      engineState: { ...state, nearThreshold: true },
    }
    const far = evaluate(near, legs())
    expect(changedShows(near, far)).toEqual({
      engineState: { ...state, nearThreshold: false },
    })
  })

  test('includes the engine state, kept whole, when fundingBelowSince changes', () => {
    const t = running()
    const v = evaluate(t, legs(funding(PAYING)))
    const shown = { ...t, ...v.shows }
    expect(changedShows(shown, v)).toEqual({
      engineState: {
        ...ENGINE,
        nearThreshold: false,
        fundingBelowSince: msToIso(NOW),
        fundingApy: '-87.6',
      },
    })

    const below = {
      ...shown,
      engineState: { ...ENGINE, fundingBelowSince: msToIso(NOW - 1) },
    }
    const recovered = evaluate(below, legs())
    expect(changedShows(below, recovered)).toEqual({
      engineState: { ...ENGINE, nearThreshold: false, fundingBelowSince: null },
    })
  })

  test('includes the engine state when the funding APY shown moves', () => {
    const t = { ...running(), engineState: ENGINE }
    const v = evaluate(t, legs(funding({ long: '0', short: '0.00011' })))
    expect(v.state.fundingApy).toBe('96.36')
    expect(changedShows({ ...t, ...v.shows }, v)).toEqual({
      engineState: { ...ENGINE, nearThreshold: false, fundingApy: '96.36' },
    })
    // under a hundredth of a percent is no news
    const same = evaluate(
      t,
      legs(funding({ long: '0', short: '0.0001000001' })),
    )
    expect(changedShows({ ...t, ...same.shows }, same)).toBeNull()
  })

  test('a task without an engine state gets a whole one, not a partial one', () => {
    const t = running({ liqProtectionPct: '10', engineState: null })
    const v = evaluate(
      t,
      legs({ long: { position: { liquidationPrice: '85' } } }),
    )
    const patch = changedShows({ ...t, ...v.shows }, v)
    expect(patch).toEqual({
      engineState: {
        ...EMPTY_ENGINE_STATE,
        nearThreshold: true,
        fundingBelowSince: null,
        fundingApy: '87.6',
      },
    })
    // the next operation counts on from a number
    expect(Number.isInteger(patch?.engineState?.seq)).toBe(true)
  })

  test('a zero mark measures no liquidation distance', () => {
    const t = running({ liqProtectionPct: '10' })
    const v = evaluate(
      t,
      legs({
        long: { quote: { mark: '0' }, position: { liquidationPrice: '85' } },
      }),
    )
    expect(v.close).toBeNull()
    expect(v.state.nearThreshold).toBe(false)
  })

  test('leaves the engine state out when only shown fields change', () => {
    const t = running({ liqProtectionPct: '10' })
    const l = legs({ long: { position: { liquidationPrice: '85' } } })
    const v = evaluate(t, l)
    const patch = changedShows({ ...showing(t, v), longPrice: '1' }, v)
    expect(patch).toEqual({ longPrice: '100' })
  })
})

// ------------------------------------------------------------ properties

/** A positive decimal string with up to `scale` fractional digits. */
const positive = (max: number, scale = 4) =>
  fc
    .tuple(fc.integer({ min: 1, max }), fc.integer({ min: 0, max: scale }))
    .map(([n, s]) => dec(n).div(dec(10).pow(s)).toFixed())

const sizeArb = fc.oneof(
  fc.constant(null),
  fc.constant('0'),
  positive(1_000_000, 6),
)
const pctArb = fc.option(positive(5_000, 2), { nil: null })
const rateArb = fc
  .integer({ min: -2_000, max: 2_000 })
  .map((n) => dec(n).div(10_000_000).toFixed())

const positionArb = (leg: Leg) =>
  fc.option(
    fc.record({
      size: fc.oneof(
        fc.constant('0'),
        positive(1_000_000, 6).map((s) => (leg === 'short' ? `-${s}` : s)),
      ),
      leverage: fc.constantFrom('1', '3', '10'),
      marginMode: fc.constantFrom('cross' as const, 'isolated' as const),
      liquidationPrice: fc.option(positive(10_000_000, 3), { nil: null }),
    }),
    { nil: undefined },
  )

const legArb = (leg: Leg) =>
  fc.record({
    mark: positive(10_000_000, 3),
    rate: rateArb,
    position: positionArb(leg),
  })

const graceArb = fc.constantFrom(0, 1, 60_000, GRACE_MS)

const engineArb = fc.option(
  fc.record({
    op: fc.constant(null),
    seq: fc.nat(50),
    fundingSince: fc.constant(ENGINE.fundingSince),
    fundingBelowSince: fc.option(
      fc.integer({ min: -2 * GRACE_MS, max: 0 }).map((d) => msToIso(NOW + d)),
      { nil: null },
    ),
    nearThreshold: fc.option(fc.boolean(), { nil: undefined }),
  }),
  { nil: null },
)

const taskArb = fc.record({
  longSize: sizeArb,
  shortSize: sizeArb,
  liqProtectionPct: pctArb,
  sizeMismatchPct: pctArb,
  autoClose: fc.boolean(),
  minFundingApy: fc
    .integer({ min: -200, max: 200 })
    .map((n) => dec(n).div(2).toFixed()),
  engineState: engineArb,
  error: fc.constantFrom(
    null,
    retryNote(['hl: timeout']),
    'venue rejected the request: reduce only',
  ),
  longPrice: fc.option(positive(10_000_000, 3), { nil: null }),
  longLeverage: fc.constantFrom(null, '1', '3'),
  shortMarginMode: fc.constantFrom(null, 'cross', 'isolated'),
})

describe('evaluateRunningTask with changedShows, for any snapshots', () => {
  test('a second sweep with unchanged snapshots writes nothing and closes for the same reason', () => {
    fc.assert(
      fc.property(
        taskArb,
        legArb('long'),
        legArb('short'),
        graceArb,
        (over, long, short, grace) => {
          const t = running(over as Partial<TaskRecord>)
          const snapshots = legs({
            long: {
              quote: { mark: long.mark, fundingRateHourly: long.rate },
              position: long.position ?? null,
            },
            short: {
              quote: { mark: short.mark, fundingRateHourly: short.rate },
              position: short.position ?? null,
            },
          })
          const first = evaluate(t, snapshots, NOW, grace)
          const written = applied(t, changedShows(t, first))
          const second = evaluate(written, snapshots, NOW, grace)
          expect(changedShows(written, second)).toBeNull()
          expect(second.close).toBe(first.close)
          expect(second.liquidatedLeg).toBe(first.liquidatedLeg)
          expect(second.shows).toEqual(first.shows)
          expect(second.state).toEqual(first.state)
        },
      ),
      { numRuns: 500 },
    )
  })

  test('the first sweep writes what the verdict shows', () => {
    fc.assert(
      fc.property(
        taskArb,
        legArb('long'),
        legArb('short'),
        (over, long, short) => {
          const t = running(over as Partial<TaskRecord>)
          const snapshots = legs({
            long: {
              quote: { mark: long.mark, fundingRateHourly: long.rate },
              position: long.position ?? null,
            },
            short: {
              quote: { mark: short.mark, fundingRateHourly: short.rate },
              position: short.position ?? null,
            },
          })
          const v = evaluate(t, snapshots)
          const written = applied(t, changedShows(t, v))
          expect(written).toMatchObject(v.shows)
          expect(written.engineState?.nearThreshold === true).toBe(
            v.state.nearThreshold,
          )
          expect(written.engineState?.fundingBelowSince ?? null).toBe(
            v.state.fundingBelowSince,
          )
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('confirmRunningVerdict: a leg that reads gone is read again before it closes the task', () => {
  const t0 = running({ sizeMismatchPct: '10' })
  // the task alone on its account markets
  const alone = (leg: Leg) =>
    Promise.resolve(ledgerHolders(legMarket(t0, leg), [t0], []))
  const confirm = (
    l: Record<Leg, LegReading>,
    readNow: (leg: Leg) => Promise<VenuePosition | undefined>,
    holders: (leg: Leg) => Promise<LedgerHolder[]> = alone,
  ) => confirmRunningVerdict(t0, l, NOW, GRACE_MS, { readNow, holders })

  test('behavior: a stale reading without the long leg, a fresh read with it: no close', async () => {
    const asked: Leg[] = []
    const verdict = await confirm(legs({ long: { position: null } }), (l) => {
      asked.push(l)
      return Promise.resolve(position(l))
    })
    expect(asked).toEqual(['long'])
    expect(verdict.close).toBeNull()
    expect(verdict.liquidatedLeg).toBeNull()
  })

  test('behavior: the fresh read shows it gone too: leg_liquidated', async () => {
    const verdict = await confirm(
      legs({ short: { position: { size: '0' } } }),
      () => Promise.resolve(undefined),
    )
    expect(verdict).toMatchObject({
      close: 'leg_liquidated',
      liquidatedLeg: 'short',
    })
  })

  test('behavior: both legs there: no read is sent', async () => {
    const verdict = await confirm(legs(), () => {
      throw new Error('no read expected')
    })
    expect(verdict.close).toBeNull()
  })

  test('error: a fresh read that fails is thrown, nothing decided on the stale one', async () => {
    await expect(
      confirm(legs({ long: { position: null } }), () =>
        Promise.reject(new RequestBudgetError('spent')),
      ),
    ).rejects.toThrow('spent')
  })

  // another task of the owner short on the long leg's account market
  const other = task({
    id: '00000000-0000-4000-8000-0000000000b2',
    owner: t0.owner,
    status: 'running',
    longVenue: 'aster',
    longMarket: 'BTCUSDT',
    shortVenue: t0.longVenue,
    shortMarket: t0.longMarket,
    longSize: '1',
    shortSize: '1',
    engineState: ENGINE,
  })
  const shared = (leg: Leg) =>
    Promise.resolve(
      ledgerHolders(
        legMarket(t0, leg),
        leg === 'long' ? [t0, other] : [t0],
        [],
      ),
    )

  test('behavior: another task’s opposite leg nets the venue to zero: no close, no read sent', async () => {
    const verdict = await confirm(
      legs({ long: { position: null } }),
      () => {
        throw new Error('no read expected')
      },
      shared,
    )
    expect(verdict.close).toBeNull()
  })

  test('behavior: a shared position flattened at the venue: the leg is gone once read again', async () => {
    const flat = ledgerHolders(legMarket(t0, 'long'), [t0], [])
    // the other task closed meanwhile: the venue is flat, the ledger +1
    const verdict = await confirm(
      legs({ long: { position: null } }),
      () => Promise.resolve(undefined),
      (leg) => Promise.resolve(leg === 'long' ? flat : []),
    )
    expect(verdict).toMatchObject({
      close: 'leg_liquidated',
      liquidatedLeg: 'long',
    })
  })

  test('behavior: holders that move between the reads leave the verdict to the next round', async () => {
    let n = 0
    const verdict = await confirm(
      legs({ long: { position: null } }),
      () => Promise.resolve(undefined),
      async (leg) => (n++ % 2 === 0 ? await shared(leg) : await alone(leg)),
    )
    expect(verdict.close).toBeNull()
  })

  test('behavior: a liquidation halving a shared long leaves each task half: size_mismatch, not leg_liquidated', async () => {
    const two = ledgerHolders(
      legMarket(t0, 'long'),
      [
        t0,
        {
          ...other,
          shortVenue: 'aster',
          shortMarket: 'ETHUSDT',
          longVenue: t0.longVenue,
          longMarket: t0.longMarket,
        },
      ],
      [],
    )
    // the sweep knows both running tasks: it expects the two longs, 2
    const verdict = await confirmRunningVerdict(
      t0,
      legs({ long: { position: { size: '1' } } }),
      NOW,
      GRACE_MS,
      {
        readNow: () => Promise.resolve(position('long')),
        holders: (leg) => Promise.resolve(leg === 'long' ? two : []),
        expectedNet: (leg) => (leg === 'long' ? '2' : '-1'),
      },
    )
    expect(verdict).toMatchObject({
      close: 'size_mismatch',
      liquidatedLeg: null,
    })
  })
})
