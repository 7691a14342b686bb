/**
 * What one Hyperliquid `/info` read weighs, by its `type`.
 *
 * Sources:
 * - https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits
 *   ("Rate limits and user limits", read through the `docs`/`pages`
 *   search corpora): weight 2 for l2Book, allMids, clearinghouseState,
 *   orderStatus, spotClearinghouseState, exchangeStatus; 60 for userRole;
 *   20 for every other documented info request; "an additional rate
 *   limit weight per 20 items returned" for recentTrades,
 *   historicalOrders, userFills, userFillsByTime, fundingHistory,
 *   userFunding, nonUserFundingUpdates, twapHistory, userTwapSliceFills,
 *   userTwapSliceFillsByTime, delegatorHistory, delegatorRewards,
 *   validatorStats; per 60 items for candleSnapshot.
 * - docs.rs guilder-client-hyperliquid 0.2.0 README: the same table.
 *
 * @module
 */

const WEIGHT_2 = new Set([
  'l2Book',
  'allMids',
  'clearinghouseState',
  'orderStatus',
  'spotClearinghouseState',
  'exchangeStatus',
])

/**
 * Items per extra unit of weight, for the reads that charge for what they
 * return. The docs' `nonUserFundingUpdates` is no info type; the ledger
 * read is `userNonFundingLedgerUpdates`, listed under both names
 * [unverified that they mean the same read].
 */
const PER_ITEMS: Readonly<Record<string, number>> = {
  recentTrades: 20,
  historicalOrders: 20,
  userFills: 20,
  userFillsByTime: 20,
  fundingHistory: 20,
  userFunding: 20,
  nonUserFundingUpdates: 20,
  userNonFundingLedgerUpdates: 20,
  twapHistory: 20,
  userTwapSliceFills: 20,
  userTwapSliceFillsByTime: 20,
  delegatorHistory: 20,
  delegatorRewards: 20,
  validatorStats: 20,
  candleSnapshot: 60,
}

/**
 * The weight of an `/info` read before its answer is known.
 * @param type the body's `type`; anything else (or none) is "other": 20
 * @example hlInfoWeight('l2Book') // 2
 */
export function hlInfoWeight(type: unknown): number {
  if (typeof type === 'string' && WEIGHT_2.has(type)) return 2
  if (type === 'userRole') return 60
  return 20
}

/**
 * The weight an answer adds: one unit per whole `per` items returned
 * (20, or 60 for candleSnapshot) [unverified: floor, not ceil; the docs
 * say only "per 20 items"]. Only array answers count items.
 * @example hlInfoAnswerWeight('userFills', new Array(45)) // 2
 */
export function hlInfoAnswerWeight(type: unknown, answer: unknown): number {
  const per = typeof type === 'string' ? PER_ITEMS[type] : undefined
  if (per === undefined || !Array.isArray(answer)) return 0
  return Math.floor(answer.length / per)
}
