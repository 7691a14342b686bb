import { LIGHTER_CANCEL_ALL } from '../../lighter/signer/cancelAllOrders.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { isLive } from './lighterFakeOrders.js'
import { type LighterFakeState, marketById } from './lighterFakeState.js'
import { dropWaiting, isWaiting } from './lighterFakeTriggers.js'
import {
  attributesOf,
  checkFreshness,
  consumeNonce,
  num,
  type TxEnvelope,
  verifyL2,
} from './lighterFakeTx.js'

/**
 * The scheduled cancel-all's time must lie this far ahead: lighter-go
 * `MinOrderCancelAllPeriod` (5 min) and `MaxOrderCancelAllPeriod` (15
 * days) in `types/txtypes/constants.go`. The SDK's own Validate only asks
 * for a positive time; that the venue enforces these is [unverified].
 */
const LIGHTER_CANCEL_ALL_MIN_LEAD_MS = 5 * 60_000
const LIGHTER_CANCEL_ALL_MAX_LEAD_MS = 15 * 86_400_000

/** Attribute 5: the market of a market-scoped cancel-all (255: none). */
const MARKET_ATTRIBUTE = 5
const NO_MARKET = 255

const refuse = (code: number, message: string) =>
  new LighterFakeError(code, message)

/**
 * CancelAllOrders (16), by `TimeInForce`: 0 cancels the account's live
 * orders now (on one market with attribute 5), `Time` 0; 1 schedules
 * that cancel at `Time` (ms), the account's dead-man switch, replacing
 * the schedule it had (lighter-go: a market-scoped one "can't be
 * scheduled"); 2 aborts the schedule, `Time` 0. The orders it cancels
 * read `canceled` [unverified: the status list has no word of its own
 * for it]; waiting trigger orders are dropped with them. A scheduled
 * cancel-all leaves waiting trigger orders alone (the engine's switch
 * does not see them) [unverified: whether Lighter's includes them].
 */
export function cancelAllOrdersTx(
  state: LighterFakeState,
  env: TxEnvelope,
  publicKeyHex: string,
): string {
  const tif = num(env.info, 'TimeInForce')
  const time = num(env.info, 'Time')
  const hash = verifyL2(state, env, [tif, time], publicKeyHex)
  checkFreshness(state, env)
  const marketId = attributesOf(env.info)?.get(MARKET_ATTRIBUTE) ?? NO_MARKET
  const market = marketId === NO_MARKET ? null : marketById(state, marketId)
  if (marketId !== NO_MARKET && !market) {
    throw refuse(FAKE_CODES.invalidMarket, 'invalid market index')
  }
  if (
    tif !== LIGHTER_CANCEL_ALL.immediate &&
    tif !== LIGHTER_CANCEL_ALL.scheduled &&
    tif !== LIGHTER_CANCEL_ALL.abort
  ) {
    throw refuse(
      FAKE_CODES.invalidCancelAllTif,
      'invalid cancel all time in force',
    )
  }
  if (tif !== LIGHTER_CANCEL_ALL.immediate && market) {
    throw refuse(
      FAKE_CODES.invalidCancelAllTif,
      "Cancel all for market index can't be scheduled, TimeInforce must be ImmediateCancelAll",
    )
  }
  const now = state.now()
  if (tif === LIGHTER_CANCEL_ALL.scheduled) {
    if (
      time < now + LIGHTER_CANCEL_ALL_MIN_LEAD_MS ||
      time > now + LIGHTER_CANCEL_ALL_MAX_LEAD_MS
    ) {
      throw refuse(
        FAKE_CODES.invalidCancelAllTime,
        'cancel all time is not in range',
      )
    }
  } else if (time !== 0) {
    throw refuse(FAKE_CODES.invalidCancelAllTime, 'CancelAllTime should be nil')
  }
  consumeNonce(state, env)
  const owner = state.exchange.ownerOf(env.accountIndex)
  if (tif === LIGHTER_CANCEL_ALL.immediate) {
    for (const o of state.ordersByIndex.values()) {
      if (o.accountIndex !== env.accountIndex || !isLive(state, o)) continue
      if (market && o.market.symbol !== market.symbol) continue
      if (isWaiting(o)) dropWaiting(state, o, 'canceled')
      else state.exchange.cancel(o.owner, o.engineId, o.market.symbol)
    }
  } else if (owner !== null) {
    state.exchange.scheduleCancel(
      owner,
      tif === LIGHTER_CANCEL_ALL.scheduled ? time : null,
      null,
    )
  }
  return hash
}
