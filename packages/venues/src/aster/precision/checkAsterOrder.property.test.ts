import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { AsterFilters } from './asterFilters.js'
import { checkAsterOrder } from './checkAsterOrder.js'
import { roundAsterPrice } from './roundAsterPrice.js'

// ------------------------------------------------------------------------
// An independent reference of the documented rules (aster.md §6, futures
// v3 doc "Filters"), in BigInt fixed point: every decimal is an integer
// count of 10^-S. No decimal library, no code shared with the adapter.
// ------------------------------------------------------------------------
const S = 24
const ONE = 10n ** BigInt(S)

function fixed(s: string): bigint {
  const neg = s.startsWith('-')
  const [int = '0', frac = ''] = (neg ? s.slice(1) : s).split('.')
  const v = BigInt(int) * ONE + BigInt((frac + '0'.repeat(S)).slice(0, S))
  return neg ? -v : v
}

function decimals(s: string): number {
  const frac = s.split('.')[1] ?? ''
  return frac.replace(/0+$/, '').length
}

/** Every rule the order breaks, by the venue's error code. */
function referenceBreaches(
  f: AsterFilters,
  o: {
    side: 'BUY' | 'SELL'
    price: string
    qty: string
    mark: string
    reduceOnly: boolean
  },
): Set<number> {
  const out = new Set<number>()
  const p = fixed(o.price)
  const q = fixed(o.qty)
  const mark = fixed(o.mark)
  if (
    (f.pricePrecision !== null && decimals(o.price) > f.pricePrecision) ||
    (f.quantityPrecision !== null && decimals(o.qty) > f.quantityPrecision)
  )
    out.add(-1111)
  if (q <= 0n) out.add(-4003)
  if (p <= 0n) out.add(-4001)
  const minP = fixed(f.price.minPrice)
  const maxP = fixed(f.price.maxPrice)
  const tick = fixed(f.price.tickSize)
  if (minP !== 0n && p < minP) out.add(-4013)
  if (maxP !== 0n && p > maxP) out.add(-4002)
  // (price − minPrice) % tickSize == 0, sign-safe
  if (tick !== 0n && (((p - minP) % tick) + tick) % tick !== 0n) out.add(-4014)
  const minQ = fixed(f.lot.minQty)
  const maxQ = fixed(f.lot.maxQty)
  const step = fixed(f.lot.stepSize)
  if (q < minQ) out.add(-4004)
  if (maxQ !== 0n && q > maxQ) out.add(-4005)
  if (step !== 0n && (((q - minQ) % step) + step) % step !== 0n) out.add(-4023)
  if (f.percentPrice) {
    // price·ONE vs mark·multiplier (both scale 2S)
    const up = fixed(f.percentPrice.multiplierUp)
    const down = fixed(f.percentPrice.multiplierDown)
    if (o.side === 'BUY' && p * ONE > mark * up) out.add(-4016)
    if (o.side === 'SELL' && p * ONE < mark * down) out.add(-4024)
  }
  if (f.minNotional !== null && !o.reduceOnly) {
    if (p * q < fixed(f.minNotional) * ONE) out.add(-4164)
  }
  return out
}

// ------------------------------------------------------------------ inputs
/** A decimal string mantissa × 10^-scale, written plainly. */
function decStr(mantissa: bigint, scale: number): string {
  const neg = mantissa < 0n
  const digits = (neg ? -mantissa : mantissa)
    .toString()
    .padStart(scale + 1, '0')
  const int = digits.slice(0, digits.length - scale)
  const frac = digits.slice(digits.length - scale)
  return `${neg ? '-' : ''}${int}${scale > 0 ? `.${frac}` : ''}`
}

const step = fc
  .record({
    m: fc.constantFrom(1n, 2n, 5n, 10n, 25n),
    s: fc.integer({ min: 0, max: 8 }),
  })
  .map(({ m, s }) => decStr(m, s))
const small = (maxScale: number) =>
  fc
    .record({
      m: fc.bigInt({ min: 0n, max: 10n ** 7n }),
      s: fc.integer({ min: 0, max: maxScale }),
    })
    .map(({ m, s }) => decStr(m, s))

const filters: fc.Arbitrary<AsterFilters> = fc
  .record({
    tick: fc.oneof(step, fc.constant('0')),
    minPrice: fc.oneof(fc.constant('0'), small(6)),
    maxPrice: fc.oneof(fc.constant('0'), small(2)),
    stepSize: fc.oneof(step, fc.constant('0')),
    minQty: fc.oneof(fc.constant('0'), small(6)),
    maxQty: fc.oneof(fc.constant('0'), small(1)),
    minNotional: fc.option(small(2), { nil: null }),
    percent: fc.option(
      fc.record({
        up: fc
          .integer({ min: 10_000, max: 20_000 })
          .map((n) => decStr(BigInt(n), 4)),
        down: fc
          .integer({ min: 1_000, max: 10_000 })
          .map((n) => decStr(BigInt(n), 4)),
      }),
      { nil: null },
    ),
    pricePrecision: fc.option(fc.integer({ min: 0, max: 10 }), { nil: null }),
    quantityPrecision: fc.option(fc.integer({ min: 0, max: 10 }), {
      nil: null,
    }),
  })
  .map((r) => ({
    symbol: 'TESTUSDT',
    pricePrecision: r.pricePrecision,
    quantityPrecision: r.quantityPrecision,
    price: { minPrice: r.minPrice, maxPrice: r.maxPrice, tickSize: r.tick },
    lot: { minQty: r.minQty, maxQty: r.maxQty, stepSize: r.stepSize },
    marketLot: null,
    minNotional: r.minNotional,
    percentPrice: r.percent
      ? { multiplierUp: r.percent.up, multiplierDown: r.percent.down }
      : null,
  }))

/** A grid value `min + n·step` half the time, a free decimal otherwise. */
function onOrOff(min: string, stepSize: string) {
  const onGrid = fc.integer({ min: 0, max: 100_000 }).map((n) => {
    const scale = Math.max(decimals(min), decimals(stepSize))
    const f = (s: string) => fixed(s) / 10n ** BigInt(S - scale)
    return decStr(f(min) + BigInt(n) * f(stepSize), scale)
  })
  return fc.oneof(onGrid, small(10))
}

const cases = filters.chain((f) =>
  fc.record({
    f: fc.constant(f),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    price: onOrOff(f.price.minPrice, f.price.tickSize),
    qty: onOrOff(f.lot.minQty, f.lot.stepSize),
    mark: small(4).filter((m) => fixed(m) > 0n),
    reduceOnly: fc.boolean(),
  }),
)

describe('checkAsterOrder against the documented rules', () => {
  test('property: 10,000 generated orders, same verdict as the reference', () => {
    let passed = 0
    fc.assert(
      fc.property(cases, (c) => {
        const expected = referenceBreaches(c.f, {
          side: c.side,
          price: c.price,
          qty: c.qty,
          mark: c.mark,
          reduceOnly: c.reduceOnly,
        })
        const got = checkAsterOrder(c.f, {
          side: c.side,
          type: 'LIMIT',
          price: c.price,
          quantity: c.qty,
          markPrice: c.mark,
          reduceOnly: c.reduceOnly,
        })
        if (got === null) passed++
        // null exactly when no rule is broken, else one of the broken rules
        expect(got === null ? null : expected.has(got.code)).toBe(
          expected.size === 0 ? null : true,
        )
      }),
      { numRuns: 10_000, seed: 8 },
    )
    // the generator reaches both verdicts often
    expect(passed).toBeGreaterThan(300)
    expect(passed).toBeLessThan(9_700)
  })

  test('property: a rounded price is on the tick grid and on the right side', () => {
    fc.assert(
      fc.property(
        filters.filter((f) => f.price.tickSize !== '0'),
        small(8),
        fc.constantFrom('down' as const, 'up' as const),
        (f, price, mode) => {
          const r = roundAsterPrice(f.price, price, mode)
          const tick = fixed(f.price.tickSize)
          const min = fixed(f.price.minPrice)
          expect((((fixed(r) - min) % tick) + tick) % tick).toBe(0n)
          if (mode === 'down') {
            expect(fixed(r) <= fixed(price)).toBe(true)
            expect(fixed(price) - fixed(r) < tick).toBe(true)
          } else {
            expect(fixed(r) >= fixed(price)).toBe(true)
            expect(fixed(r) - fixed(price) < tick).toBe(true)
          }
        },
      ),
      { numRuns: 2_000, seed: 9 },
    )
  })

  test('documented: the minPrice offset moves the tick grid', () => {
    const f: AsterFilters = {
      symbol: 'X',
      pricePrecision: null,
      quantityPrecision: null,
      price: { minPrice: '0.05', maxPrice: '0', tickSize: '0.1' },
      lot: { minQty: '1', maxQty: '0', stepSize: '1' },
      marketLot: null,
      minNotional: null,
      percentPrice: null,
    }
    const at = (price: string) =>
      checkAsterOrder(f, {
        side: 'BUY',
        type: 'LIMIT',
        price,
        quantity: '1',
        markPrice: '1',
        reduceOnly: false,
      })?.code ?? null
    expect(at('1.05')).toBeNull()
    expect(at('1.1')).toBe(-4014)
    expect(roundAsterPrice(f.price, '1.1', 'down')).toBe('1.05')
    expect(roundAsterPrice(f.price, '1.1', 'up')).toBe('1.15')
  })
})
