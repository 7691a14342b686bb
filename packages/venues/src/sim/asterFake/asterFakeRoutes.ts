import {
  accountInformation,
  agents,
  approveAgent,
  positionMode,
  positionRisk,
} from './asterFakeAccount.js'
import { deleteAgent, updateAgent } from './asterFakeAgentChanges.js'
import { balance } from './asterFakeBalance.js'
import { cancelBatch, placeBatch } from './asterFakeBatchOrders.js'
import {
  approveBuilder,
  deleteBuilder,
  listBuilders,
  updateBuilder,
} from './asterFakeBuilders.js'
import { commissionRate } from './asterFakeCommission.js'
import { countdownCancelAll } from './asterFakeCountdown.js'
import { income } from './asterFakeIncome.js'
import {
  leverageBracket,
  setLeverage,
  setMarginType,
} from './asterFakeLeverage.js'
import { modifyOrder } from './asterFakeModify.js'
import {
  allOrders,
  cancelAllOpenOrders,
  openOrder,
  openOrders,
} from './asterFakeOpenOrders.js'
import { cancelOrder, placeOrder, queryOrder } from './asterFakeOrders.js'
import type { AsterFakeState } from './asterFakeState.js'
import { userTrades } from './asterFakeTrades.js'

/**
 * The fake's signed routes by `METHOD path`: agent-signed (TRADE /
 * USER_DATA, the `Message` scheme) and main-wallet (dynamic struct)
 * ones. Each is charged its weight by the gate (`asterRequestWeight.ts`)
 * before it is authenticated. The public GETs: `asterFakeMarket.ts`;
 * listenKeys: `startAsterFake.ts`.
 *
 * @module
 */

type Signed = (
  state: AsterFakeState,
  user: string,
  pairs: readonly (readonly [string, string])[],
  method: string,
) => unknown

/** Agent-signed routes by `METHOD path`. */
export const SIGNED_ROUTES: Record<string, Signed> = {
  'POST /fapi/v3/order': placeOrder,
  'GET /fapi/v3/order': queryOrder,
  'DELETE /fapi/v3/order': cancelOrder,
  'PUT /fapi/v3/order': modifyOrder,
  'POST /fapi/v3/batchOrders': placeBatch,
  'DELETE /fapi/v3/batchOrders': cancelBatch,
  'GET /fapi/v3/openOrder': openOrder,
  'GET /fapi/v3/openOrders': openOrders,
  'DELETE /fapi/v3/allOpenOrders': cancelAllOpenOrders,
  'GET /fapi/v3/allOrders': allOrders,
  'POST /fapi/v3/countdownCancelAll': countdownCancelAll,
  'GET /fapi/v3/positionRisk': positionRisk,
  'GET /fapi/v3/accountWithJoinMargin': (state, user) =>
    accountInformation(state, user),
  // the name "Account Information v3" had until the doc's 2026-03-28 rename
  'GET /fapi/v3/account': (state, user) => accountInformation(state, user),
  'GET /fapi/v3/balance': (state, user) => balance(state, user),
  'POST /fapi/v3/leverage': setLeverage,
  'POST /fapi/v3/marginType': setMarginType,
  'GET /fapi/v3/leverageBracket': leverageBracket,
  'GET /fapi/v3/commissionRate': commissionRate,
  'GET /fapi/v3/positionSide/dual': positionMode,
  'POST /fapi/v3/positionSide/dual': positionMode,
  'GET /fapi/v3/income': income,
  'GET /fapi/v3/userTrades': userTrades,
  'GET /fapi/v3/agent': (state, user) => agents(state, user),
  'GET /fapi/v3/builder': (state, user) => listBuilders(state, user),
  'POST /fapi/v3/noop': () => ({ code: 200, msg: 'success' }),
}

type Main = (
  state: AsterFakeState,
  user: string,
  pairs: readonly (readonly [string, string])[],
) => unknown

/** Main-wallet (dynamic struct) routes: primary type and handler. */
export const MAIN_ROUTES: Record<string, readonly [string, Main]> = {
  'POST /fapi/v3/approveAgent': ['ApproveAgent', approveAgent],
  'POST /fapi/v3/updateAgent': ['UpdateAgent', updateAgent],
  'DELETE /fapi/v3/agent': ['DelAgent', deleteAgent],
  'POST /fapi/v3/approveBuilder': ['ApproveBuilder', approveBuilder],
  'POST /fapi/v3/updateBuilder': ['UpdateBuilder', updateBuilder],
  'DELETE /fapi/v3/builder': ['DelBuilder', deleteBuilder],
}
