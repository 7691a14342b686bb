import { randomBytes } from 'node:crypto'
import { roundPrice, type VenueOrder } from '@dn/core'
import type { LighterTestBed } from './lighterTestBed.js'

/**
 * Test kit: an IOC order placed straight on the bed's engine (as if sent
 * from elsewhere), priced through the book so it fills.
 * @internal
 */
export function fillLighterBed(
  bed: LighterTestBed,
  side: 'long' | 'short',
  size = '0.01',
  market = 'ETH',
): VenueOrder {
  const rules = bed.exchange.rules(market)
  if (!rules) throw new Error(`${market} not listed`)
  const mark = Number(bed.exchange.quote(market).mark)
  const price = roundPrice(
    rules,
    mark * (side === 'long' ? 1.05 : 0.95),
    side === 'long' ? 'up' : 'down',
  ).toFixed()
  return bed.exchange.place(bed.owner, {
    market,
    side,
    size,
    price,
    timeInForce: 'ioc',
    reduceOnly: false,
    clientOrderId: `0x${randomBytes(16).toString('hex')}`,
  })
}
