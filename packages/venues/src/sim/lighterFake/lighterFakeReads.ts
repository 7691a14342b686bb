import {
  account,
  accountsByL1Address,
  apiKeys,
  nextNonce,
} from './lighterFakeAccountReads.js'
import { assetDetails } from './lighterFakeAssets.js'
import { candles } from './lighterFakeCandles.js'
import { LighterFakeError } from './lighterFakeError.js'
import { fundings, positionFunding } from './lighterFakeFundings.js'
import {
  exchangeStats,
  fundingRates,
  orderBookDetails,
  orderBookOrders,
  orderBooks,
} from './lighterFakeMarketReads.js'
import {
  accountActiveOrders,
  accountInactiveOrders,
  accountOrders,
} from './lighterFakeOrderReads.js'
import { accountPnl } from './lighterFakePnl.js'
import type { Query } from './lighterFakeQuery.js'
import type { LighterFakeState } from './lighterFakeState.js'
import { recentTrades, trades } from './lighterFakeTradeReads.js'
import { lighterFakeTx } from './lighterFakeTxLog.js'

/** The code of a path the fake does not serve [unverified]. */
const UNKNOWN_PATH = 20000

/**
 * Answers one GET under `/api/v1/` (`path` without that prefix). The
 * authenticated reads check `token` (`lighterFakeAuthOf`): a live token
 * of a registered key of the account they read.
 *
 * @throws {LighterFakeError} refusals, answered as HTTP 400.
 */
export function handleRead(
  state: LighterFakeState,
  path: string,
  q: Query,
  token = '',
): Record<string, unknown> {
  switch (path) {
    case 'orderBooks':
      return orderBooks(state, q)
    case 'orderBookDetails':
      return orderBookDetails(state, q)
    case 'orderBookOrders':
      return orderBookOrders(state, q)
    case 'exchangeStats':
      return exchangeStats(state)
    case 'assetDetails':
      return assetDetails(q)
    case 'funding-rates':
      return fundingRates(state)
    case 'recentTrades':
      return recentTrades(state, q)
    case 'trades':
      return trades(state, q, token)
    case 'candles':
      return candles(state, q)
    case 'fundings':
      return fundings(state, q)
    case 'accountsByL1Address':
      return accountsByL1Address(state, q)
    case 'account':
      return account(state, q)
    case 'apikeys':
      return apiKeys(state, q)
    case 'nextNonce':
      return nextNonce(state, q)
    case 'tx':
      return lighterFakeTx(state, q)
    case 'accountOrders':
      return accountOrders(state, q, token)
    case 'accountActiveOrders':
      return accountActiveOrders(state, q, token)
    case 'accountInactiveOrders':
      return accountInactiveOrders(state, q, token)
    case 'positionFunding':
      return positionFunding(state, q, token)
    case 'pnl':
      return accountPnl(state, q, token)
    default:
      throw new LighterFakeError(UNKNOWN_PATH, `unknown path ${path}`)
  }
}
