import {
  dec,
  isMultipleOf,
  type OrderSide,
  roundPrice,
  type TimeInForce,
  VenueRejectedError,
} from '@dn/core'
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { OWNER, simTestKit } from './simTestKit.js'

const OTHER = '0x00000000000000000000000000000000000000b2'
const owners = [OWNER, OTHER] as const

const action = fc.oneof(
  fc.record({
    kind: fc.constant('place' as const),
    who: fc.integer({ min: 0, max: 1 }),
    side: fc.constantFrom<OrderSide>('long', 'short'),
    units: fc.integer({ min: 1, max: 300 }),
    bps: fc.integer({ min: -30, max: 30 }),
    tif: fc.constantFrom<TimeInForce>('ioc', 'gtc', 'post_only'),
    reduceOnly: fc.boolean(),
    cloid: fc.integer({ min: 0, max: 14 }),
  }),
  fc.record({
    kind: fc.constant('cancel' as const),
    who: fc.integer({ min: 0, max: 1 }),
    cloid: fc.integer({ min: 0, max: 14 }),
  }),
  fc.record({
    kind: fc.constant('wait' as const),
    ms: fc.integer({ min: 0, max: 20_000 }),
  }),
)

test('property: fills sum to the position, and a cloid is one order', () => {
  fc.assert(
    fc.property(fc.array(action, { maxLength: 40 }), fc.nat(), (acts, seed) => {
      const k = simTestKit({ seed })
      k.ex.faucet(OTHER, 50_000)
      const accepted = new Map<string, { who: number; side: OrderSide }>()
      for (const a of acts) {
        try {
          if (a.kind === 'wait') k.advance(a.ms)
          if (a.kind === 'cancel') {
            k.ex.cancel(owners[a.who] ?? OWNER, `c${a.cloid}`)
          }
          if (a.kind === 'place') {
            const mark = dec(k.ex.quote('BTC').mark)
            const rules = k.ex.rules('BTC')
            if (!rules) throw new RangeError('BTC not listed')
            const raw = mark.mul(dec(10_000 + a.bps).div(10_000))
            const price = roundPrice(
              rules,
              raw,
              a.side === 'long' ? 'up' : 'down',
            )
            const order = k.ex.place(owners[a.who] ?? OWNER, {
              market: 'BTC',
              side: a.side,
              size: dec(a.units).div(1000).toString(),
              price: price.toString(),
              timeInForce: a.tif,
              reduceOnly: a.reduceOnly,
              clientOrderId: `c${a.cloid}`,
            })
            expect(accepted.has(order.clientOrderId)).toBe(false)
            accepted.set(order.clientOrderId, { who: a.who, side: a.side })
            const avg = order.averagePrice
            if (avg !== null) {
              const worse =
                a.side === 'long' ? dec(avg).gt(price) : dec(avg).lt(price)
              expect(worse).toBe(false)
            }
          }
        } catch (err) {
          if (!(err instanceof VenueRejectedError)) throw err
        }
        const stats = k.ex.stats()
        expect(stats.placed).toBe(accepted.size)
        for (const count of stats.byClientOrderId.values())
          expect(count).toBe(1)
        owners.forEach((owner, who) => {
          let net = dec(0)
          for (const [cloid, o] of accepted) {
            if (o.who !== who) continue
            const view = k.ex.order(owner, cloid)
            if (!view) throw new RangeError(`lost ${cloid}`)
            expect(dec(view.filledBase).lte(view.size)).toBe(true)
            expect(isMultipleOf(view.filledBase, '0.00001')).toBe(true)
            net =
              o.side === 'long'
                ? net.add(view.filledBase)
                : net.sub(view.filledBase)
          }
          for (const l of k.ex.liquidations(owner)) net = net.sub(l.size)
          const position = k.ex.positions(owner)[0]?.size ?? '0'
          expect(net.toString()).toBe(dec(position).toString())
        })
      }
    }),
    { numRuns: 120 },
  )
})
