import { venueStyle } from '../venueStyle.js'
import { param } from './asterFakeAuth.js'
import { mandatory } from './asterFakeError.js'
import { filtersOf } from './asterFakeMarket.js'
import type { AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

/**
 * `GET /fapi/v3/commissionRate` (USER_DATA, weight 20): the rates the
 * engine charges every account (its base tier), as the futures v3 doc's
 * "User Commission Rate" shapes them.
 */
export function commissionRate(
  state: AsterFakeState,
  _user: string,
  pairs: Pairs,
) {
  const symbol = param(pairs, 'symbol')
  if (!symbol) throw mandatory('symbol')
  filtersOf(state, symbol)
  const { maker, taker } = venueStyle('aster').fees
  return {
    symbol,
    makerCommissionRate: maker,
    takerCommissionRate: taker,
  }
}
