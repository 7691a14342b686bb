import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { dec, decString } from '../util/decimal.js'
import {
  holderGone,
  type LedgerHolder,
  readLedger,
  reducesNet,
} from './positionLedger.js'

const holder = (
  id: string,
  position: string,
  mayBuy = '0',
  maySell = '0',
): LedgerHolder => ({ id, position, mayBuy, maySell })

describe('readLedger', () => {
  test('two tasks whose legs net out at the venue: no difference, each keeps its own', () => {
    const r = readLedger([holder('A', '0.02'), holder('B', '-0.02')], '0')
    expect(r).toMatchObject({ sum: '0', external: '0', unattributed: '0' })
    expect(r.attributed.get('A')).toBe('0.02')
    expect(r.attributed.get('B')).toBe('-0.02')
  })

  test('an order in flight explains a net anywhere between its holders with and without it', () => {
    // A long 1; B opening short 1: the venue may show 1, 0.4 or 0
    for (const net of ['1', '0.4', '0']) {
      const r = readLedger([holder('A', '1'), holder('B', '0', '0', '1')], net)
      expect(r.external, net).toBe('0')
      expect(r.attributed.get('A')).toBe('1')
    }
    // but not beyond it
    const r = readLedger([holder('A', '1'), holder('B', '0', '0', '1')], '-0.5')
    expect(r.external).toBe('-0.5')
    expect(r.unattributed).toBe('-0.5')
    expect(r.attributed.get('A')).toBe('1')
  })

  test('a liquidation shrinks the holders on the side the net was on, pro rata', () => {
    const r = readLedger(
      [holder('A', '2'), holder('B', '1'), holder('C', '-1')],
      '0.5',
    )
    // 2 + 1 − 1 = 2 booked, 0.5 at the venue: 1.5 taken from A and B
    expect(r.external).toBe('-1.5')
    expect(r.attributed.get('A')).toBe('1')
    expect(r.attributed.get('B')).toBe('0.5')
    expect(r.attributed.get('C')).toBe('-1')
    expect(r.unattributed).toBe('0')
  })

  test('a position flattened at the venue takes the whole side; what is left over is no one’s', () => {
    const r = readLedger([holder('A', '1'), holder('D', '0.5')], '-0.25')
    expect(r.attributed.get('A')).toBe('0')
    expect(r.attributed.get('D')).toBe('0')
    expect(r.unattributed).toBe('-0.25')
    expect(holderGone('1', r.attributed.get('A') as string)).toBe(true)
  })

  test('more at the venue than the holders hold is no one’s', () => {
    const r = readLedger([holder('A', '1')], '3')
    expect(r).toMatchObject({ external: '2', unattributed: '2' })
    expect(r.attributed.get('A')).toBe('1')
  })

  const amount = fc
    .integer({ min: -50, max: 50 })
    .map((n) => decString(dec(n).div(4)))
  const flight = fc.integer({ min: 0, max: 8 }).map((n) => String(n / 4))
  const holders = fc
    .array(fc.tuple(amount, flight, flight), { minLength: 0, maxLength: 6 })
    .map((hs) => hs.map(([p, b, s], i) => holder(`h${i}`, p, b, s)))

  test('property: no holder gains, none crosses zero, and with nothing in flight the parts add up to the venue’s net', () => {
    fc.assert(
      fc.property(holders, amount, (hs, net) => {
        const r = readLedger(hs, net)
        for (const h of hs) {
          const own = dec(h.position)
          const got = dec(r.attributed.get(h.id) as string)
          expect(got.abs().lte(own.abs())).toBe(true)
          expect(got.isZero() || got.isPositive() === own.isPositive()).toBe(
            true,
          )
        }
        const total = [...r.attributed.values()].reduce(
          (s, v) => s.add(v),
          dec(r.unattributed),
        )
        const quiet = hs.every(
          (h) => dec(h.mayBuy).isZero() && dec(h.maySell).isZero(),
        )
        if (quiet) expect(decString(total)).toBe(decString(dec(net)))
        if (r.external === '0') {
          for (const h of hs) {
            expect(r.attributed.get(h.id)).toBe(decString(dec(h.position)))
          }
        }
      }),
    )
  })
})

describe('reducesNet', () => {
  test('only an order that takes the net toward zero, not past it', () => {
    expect(reducesNet('short', '1', '1')).toBe(true)
    expect(reducesNet('short', '0.5', '1')).toBe(true)
    expect(reducesNet('short', '1.5', '1')).toBe(false)
    expect(reducesNet('short', '1', '-1')).toBe(false)
    expect(reducesNet('short', '1', '0')).toBe(false)
    expect(reducesNet('long', '1', '-2')).toBe(true)
    expect(reducesNet('long', '1', '2')).toBe(false)
  })
})
