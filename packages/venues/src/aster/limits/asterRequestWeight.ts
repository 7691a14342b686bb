/**
 * What one Aster Futures V3 request weighs against `REQUEST_WEIGHT`, and
 * how many orders it counts against `ORDERS`.
 *
 * Sources:
 * - asterdex/api-docs@265e024 "V3(Recommended)/EN/aster-finance-futures-api-v3.md":
 *   the "Weight:" line of every endpoint (exchangeInfo, premiumIndex,
 *   fundingInfo, fundingRate, time, ping 1; bookTicker and ticker/price
 *   1 for a symbol, 2 without; ticker/24hr and openOrders 1 / 40; depth
 *   by limit 2/5/10/20; klines by limit 1/2/5/10; positionSide/dual GET
 *   30, POST 1; order POST/PUT/GET/DELETE 1; batchOrders POST 5;
 *   balance, accountWithJoinMargin, positionRisk, userTrades, allOrders
 *   5; income 30; leverage, marginType 1; listenKey 1;
 *   registerAndApproveAgent 50; …).
 * - ccxt/ccxt@01697e39fb136138b495e6f000e8e561c8a3929d ts/src/aster.ts:
 *   `v3/agent` cost 1.
 *
 * `POST /fapi/v3/approveAgent`, `GET|DELETE /fapi/v3/agent`, `GET|DELETE
 * /fapi/v3/builder`, `POST /fapi/v3/approveBuilder|updateBuilder` have no
 * published weight ("TBD" in the asterCode endpoint table): 1 [unverified],
 * as ccxt's costs. `GET /fapi/v3/account` is Account Information v3 under
 * its name before the doc's 2026-03-28 rename: 5. Which requests count as orders: "Every
 * order response will contain a X-MBX-ORDER-COUNT" — new and modified
 * orders, a batch counting each of its orders [unverified: Binance's
 * rule, of which Aster's API is a copy]; cancels do not.
 *
 * @module
 */

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

const V3 = '/fapi/v3/'

/** `METHOD path-after-/fapi/v3/` → weight, for fixed weights other than 1. */
const FIXED: Readonly<Record<string, number>> = {
  'GET historicalTrades': 20,
  'GET aggTrades': 20,
  'GET positionSide/dual': 30,
  'GET stpMode': 30,
  'GET multiAssetsMargin': 30,
  'POST batchOrders': 5,
  'POST asset/wallet/transfer': 5,
  'POST countdownCancelAll': 10,
  'GET allOrders': 5,
  'GET balance': 5,
  'GET accountWithJoinMargin': 5,
  // the same Account Information v3 under its name before the doc's
  // 2026-03-28 rename (api-docs 143f507), still listed by ccxt
  'GET account': 5,
  'GET positionRisk': 5,
  'GET userTrades': 5,
  'GET income': 30,
  'GET adlQuantile': 5,
  'GET commissionRate': 20,
  'POST placeStrategyOrder': 50,
  'POST updateStrategyOrder': 50,
  'GET strategyOpenOrder': 5,
  'GET strategyHistoryOrder': 5,
  'POST registerAndApproveAgent': 50,
}

/** Weight with a symbol, without one. */
const BY_SYMBOL: Readonly<Record<string, readonly [number, number]>> = {
  'GET ticker/24hr': [1, 40],
  'GET ticker/price': [1, 2],
  'GET ticker/bookTicker': [1, 2],
  'GET openOrders': [1, 40],
  'GET forceOrders': [20, 50],
}

const KLINES = new Set(['klines', 'indexPriceKlines', 'markPriceKlines'])

function depthWeight(limit: number): number {
  if (limit <= 50) return 2
  if (limit <= 100) return 5
  if (limit <= 500) return 10
  return 20
}

function klinesWeight(limit: number): number {
  if (limit < 100) return 1
  if (limit < 500) return 2
  if (limit <= 1000) return 5
  return 10
}

const route = (method: Method, path: string) =>
  `${method} ${(path.split('?')[0] ?? '').replace(V3, '')}`

/**
 * The `REQUEST_WEIGHT` a request spends.
 * @param params the encoded query or form body (only `symbol` and
 *   `limit` matter)
 * @example asterRequestWeight('GET', '/fapi/v3/positionRisk', '') // 5
 */
export function asterRequestWeight(
  method: Method,
  path: string,
  params: string,
): number {
  const key = route(method, path)
  const fixed = FIXED[key]
  if (fixed !== undefined) return fixed
  const q = new URLSearchParams(params)
  const bySymbol = BY_SYMBOL[key]
  if (bySymbol) return q.get('symbol') ? bySymbol[0] : bySymbol[1]
  const limit = Number(q.get('limit') ?? 500)
  const n = Number.isFinite(limit) ? limit : 500
  if (key === 'GET depth') return depthWeight(n)
  const [verb, name = ''] = key.split(' ')
  if (verb === 'GET' && KLINES.has(name)) return klinesWeight(n)
  return 1
}

/**
 * How many orders a request counts against `ORDERS`: 1 for a new or
 * modified order, one per entry of a `batchOrders` list, else 0.
 * @example asterOrderCount('POST', '/fapi/v3/order', 'symbol=BTCUSDT') // 1
 */
export function asterOrderCount(
  method: Method,
  path: string,
  params: string,
): number {
  const key = route(method, path)
  if (key === 'POST order' || key === 'PUT order') return 1
  if (key !== 'POST batchOrders') return 0
  try {
    const list: unknown = JSON.parse(
      new URLSearchParams(params).get('batchOrders') ?? '[]',
    )
    return Array.isArray(list) ? list.length : 0
  } catch {
    return 0
  }
}
