/**
 * What one Lighter REST request weighs, by its path under `/api/v1/`.
 *
 * Sources:
 * - https://apidocs.lighter.xyz/docs/rate-limits ("Weights" table, read
 *   through the `docs`/`pages` search corpora, newest crawl with the
 *   Builder and Plus tiers): sendTx, sendTxBatch, nextNonce 6;
 *   publicPools, txFromL1TxHash 50; accountInactiveOrders, deposit/latest
 *   100; apikeys 150; transferFeeInfo 500; trades, recentTrades 600;
 *   changeAccountTier, tokens, tokens/revoke, setAccountMetadata,
 *   notification/ack, createIntentAddress, fastwithdraw, referral/* 3000;
 *   tokens/create 23000; other endpoints 300. "Whenever
 *   {premium_weighted_requests}/{endpoint_weight} < {standard_requests},
 *   the former limit is going to be applied" (8 a minute for
 *   changeAccountTier).
 * - api-evangelist/lighter@74746a2a2103542b4c01df5deac36e57abad8c67
 *   rate-limits/lighter-rate-limits.yml: the same table (2026-07-19).
 *
 * @module
 */

const WEIGHTS: Readonly<Record<string, number>> = {
  sendTx: 6,
  sendTxBatch: 6,
  nextNonce: 6,
  publicPools: 50,
  txFromL1TxHash: 50,
  accountInactiveOrders: 100,
  'deposit/latest': 100,
  apikeys: 150,
  transferFeeInfo: 500,
  trades: 600,
  recentTrades: 600,
  changeAccountTier: 3000,
  tokens: 3000,
  'tokens/revoke': 3000,
  setAccountMetadata: 3000,
  'notification/ack': 3000,
  createIntentAddress: 3000,
  fastwithdraw: 3000,
  'referral/*': 3000,
  'tokens/create': 23000,
}

const OTHER = 300

/** Premium's weighted budget, which also caps standard heavy endpoints. */
const LIGHTER_PREMIUM_WEIGHT = 24_000

/** A standard account's requests per rolling minute. */
export const LIGHTER_STANDARD_REQUESTS = 60

/**
 * The weight table's key for a path: the path itself, or its `referral/*`
 * group. Leading `/`, `/api/v1/` and a query string are dropped.
 * @example lighterEndpoint('/api/v1/referral/points?x=1') // 'referral/*'
 */
export function lighterEndpoint(path: string): string {
  const p = (path.split('?')[0] ?? '')
    .replace(/^\/+/, '')
    .replace(/^api\/v1\//, '')
  return p.startsWith('referral/') ? 'referral/*' : p
}

/**
 * The published weight of an endpoint (300 when the table lists it not).
 * @example lighterEndpointWeight('apikeys') // 150
 */
export function lighterEndpointWeight(path: string): number {
  return WEIGHTS[lighterEndpoint(path)] ?? OTHER
}

/**
 * The endpoints heavier than premium's budget allows 60 times a minute,
 * with the requests a minute they are capped at on the standard tier:
 * ⌊24 000 / weight⌋ (transferFeeInfo 48, trades 40, the 3000-weight group
 * 8 each, tokens/create 1). [unverified] that `referral/*` shares one cap
 * rather than one per path.
 */
export const LIGHTER_STANDARD_HEAVY: Readonly<Record<string, number>> =
  Object.freeze(
    Object.fromEntries(
      Object.entries(WEIGHTS)
        .map(([e, w]): [string, number] => [
          e,
          Math.floor(LIGHTER_PREMIUM_WEIGHT / w),
        ])
        .filter(([, cap]) => cap < LIGHTER_STANDARD_REQUESTS),
    ),
  )
