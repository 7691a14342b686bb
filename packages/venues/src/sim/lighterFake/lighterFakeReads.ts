import { dec } from '@dn/core'
import { restRateFromHourly } from '../../lighter/stream/lighterFundingUnits.js'
import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { lighterFakeOrderJson } from './lighterFakeOrderJson.js'
import { isLive } from './lighterFakeOrders.js'
import {
  accountIndexOf,
  fixed,
  keyId,
  type LighterFakeMarket,
  type LighterFakeState,
  marketById,
} from './lighterFakeState.js'

type Query = URLSearchParams
const OK = { code: 200 }

const int = (q: Query, name: string): number => {
  const v = q.get(name)
  const n = v !== null && /^\d+$/.test(v) ? Number(v) : Number.NaN
  if (!Number.isSafeInteger(n)) {
    throw new LighterFakeError(20001, `invalid param: ${name}`)
  }
  return n
}

const notFound = () =>
  new LighterFakeError(FAKE_CODES.accountNotFound, 'account not found')

/**
 * Answers one GET under `/api/v1/`. Authenticated paths need a token of a
 * registered key of the queried account (header `Authorization` or query
 * `auth`), with a deadline in (now, now + 8 h].
 */
export function handleRead(
  state: LighterFakeState,
  path: string,
  q: Query,
  authHeader: string | undefined,
): Record<string, unknown> {
  switch (path) {
    case 'orderBookDetails':
      return { ...OK, order_book_details: details(state, q) }
    case 'orderBookOrders':
      return book(state, int(q, 'market_id'), int(q, 'limit'))
    case 'funding-rates':
      return {
        ...OK,
        funding_rates: state.markets.map((m) => ({
          market_id: m.marketId,
          exchange: 'lighter',
          symbol: m.symbol,
          rate: Number(
            restRateFromHourly(
              state.exchange.quote(m.symbol).fundingRateHourly,
            ),
          ),
        })),
      }
    case 'accountsByL1Address':
      return byAddress(state, q.get('l1_address') ?? '')
    case 'account':
      return { ...OK, total: 1, accounts: [account(state, q)] }
    case 'apikeys':
      return apiKeys(state, int(q, 'account_index'), int(q, 'api_key_index'))
    case 'nextNonce':
      return {
        ...OK,
        nonce:
          state.nonces.get(
            keyId(int(q, 'account_index'), int(q, 'api_key_index')),
          ) ?? 0,
      }
    case 'accountOrders':
    case 'accountActiveOrders':
    case 'positionFunding':
      return authenticated(state, path, q, authHeader ?? q.get('auth') ?? '')
    default:
      throw new LighterFakeError(20000, `unknown path ${path}`)
  }
}

function details(state: LighterFakeState, q: Query) {
  const id = q.get('market_id')
  const wanted = id === null || id === '255' ? null : Number(id)
  return state.markets
    .filter((m) => wanted === null || m.marketId === wanted)
    .map((m) => {
      const quote = state.exchange.quote(m.symbol)
      const px = (v: string) => fixed(v, m.priceDecimals)
      return {
        symbol: m.symbol,
        market_id: m.marketId,
        market_type: 'perp',
        status: 'active',
        taker_fee: '0.0000',
        maker_fee: '0.0000',
        min_base_amount: fixed(m.minBase, m.sizeDecimals),
        min_quote_amount: fixed(m.minQuote, 6),
        size_decimals: m.sizeDecimals,
        price_decimals: m.priceDecimals,
        supported_size_decimals: m.sizeDecimals,
        supported_price_decimals: m.priceDecimals,
        supported_quote_decimals: 6,
        quote_multiplier: 1,
        default_initial_margin_fraction: Math.ceil(
          10_000 / Math.min(10, m.maxLeverage),
        ),
        min_initial_margin_fraction: Math.ceil(10_000 / m.maxLeverage),
        maintenance_margin_fraction: Math.ceil(5_000 / m.maxLeverage),
        mark_price: px(quote.mark),
        index_price: px(quote.mark),
        last_trade_price: px(quote.mark),
        open_interest: '0',
      }
    })
}

function book(state: LighterFakeState, marketId: number, limit: number) {
  const m = marketById(state, marketId)
  if (!m)
    throw new LighterFakeError(FAKE_CODES.invalidMarket, 'invalid market index')
  const b = state.exchange.book(m.symbol)
  const side = (levels: typeof b.bids) =>
    levels.slice(0, Math.max(1, limit)).map((l, i) => ({
      order_index: String(i + 1),
      order_id: String(i + 1),
      owner_account_index: 0,
      price: fixed(l.price.toFixed(), m.priceDecimals),
      initial_base_amount: fixed(l.size.toFixed(), m.sizeDecimals),
      remaining_base_amount: fixed(l.size.toFixed(), m.sizeDecimals),
    }))
  return {
    ...OK,
    total_asks: b.asks.length,
    asks: side(b.asks),
    total_bids: b.bids.length,
    bids: side(b.bids),
  }
}

function byAddress(state: LighterFakeState, address: string) {
  const owner = address.toLowerCase()
  const index = accountIndexOf(state, owner)
  if (index === null) throw notFound()
  return {
    ...OK,
    l1_address: owner,
    sub_accounts: [summary(state, index, owner)],
  }
}

function summary(state: LighterFakeState, index: number, owner: string) {
  const a = state.exchange.account(owner)
  return {
    index,
    account_type: 0,
    l1_address: owner,
    status: 1,
    collateral: a.collateralUsd,
    available_balance: a.freeMarginUsd,
    total_asset_value: a.crossEquityUsd,
  }
}

function account(state: LighterFakeState, q: Query) {
  const by = q.get('by')
  const value = q.get('value') ?? ''
  let index: number | null
  let owner: string | null
  if (by === 'l1_address') {
    owner = value.toLowerCase()
    index = accountIndexOf(state, owner)
  } else if (by === 'index') {
    index = int(q, 'value')
    owner = state.exchange.ownerOf(index)
  } else {
    throw new LighterFakeError(20001, 'invalid param: by')
  }
  if (index === null || owner === null) throw notFound()
  const positions = state.exchange.positions(owner).map((p) => {
    const m = state.markets.find(
      (x) => x.symbol === p.market,
    ) as LighterFakeMarket
    const size = dec(p.size)
    return {
      market_id: m.marketId,
      symbol: m.symbol,
      initial_margin_fraction: dec(100).div(p.leverage).toFixed(2),
      sign: size.isNegative() ? -1 : 1,
      position: fixed(size.abs().toFixed(), m.sizeDecimals),
      avg_entry_price: fixed(p.entryPrice, m.priceDecimals),
      position_value: size.abs().mul(p.markPrice).toFixed(6),
      unrealized_pnl: size.mul(dec(p.markPrice).sub(p.entryPrice)).toFixed(6),
      realized_pnl: '0.000000',
      liquidation_price: p.liquidationPrice ?? '0',
      margin_mode: p.marginMode === 'isolated' ? 1 : 0,
      allocated_margin: '0.000000',
    }
  })
  const approved = [...(state.integrators.get(index)?.values() ?? [])]
  return {
    ...summary(state, index, owner),
    // the initial margin cross positions hold (six decimals, as Lighter)
    cross_initial_margin_requirement: crossInitialMargin(state, owner),
    positions,
    approved_integrators: approved,
  }
}

function crossInitialMargin(state: LighterFakeState, owner: string): string {
  let margin = dec(0)
  for (const p of state.exchange.positions(owner)) {
    if (p.marginMode !== 'cross') continue
    margin = margin.add(dec(p.size).abs().mul(p.markPrice).div(p.leverage))
  }
  return margin.toFixed(6)
}

function apiKeys(state: LighterFakeState, account: number, apiKey: number) {
  const api_keys = []
  for (let k = 0; k <= 254; k++) {
    if (apiKey !== 255 && k !== apiKey) continue
    const pk = state.keys.get(keyId(account, k))
    if (pk === undefined) continue
    api_keys.push({
      account_index: account,
      api_key_index: k,
      nonce: state.nonces.get(keyId(account, k)) ?? 0,
      public_key: pk,
    })
  }
  return { ...OK, api_keys }
}

function authenticated(
  state: LighterFakeState,
  path: string,
  q: Query,
  token: string,
) {
  const account = int(q, 'account_index')
  requireLighterAuthToken(state, account, token)
  const marketId = q.get('market_id')
  const inMarket = (id: number) =>
    marketId === null || marketId === '255' || Number(marketId) === id
  const mine = [...state.ordersByIndex.values()].filter(
    (o) => o.accountIndex === account && inMarket(o.market.marketId),
  )
  if (path === 'accountOrders') {
    const wanted = new Set(
      (q.get('client_order_indexes') ?? '')
        .split(',')
        .filter(Boolean)
        .map(Number),
    )
    return {
      ...OK,
      orders: mine
        .filter((o) => wanted.has(o.clientOrderIndex))
        .map((o) => lighterFakeOrderJson(state, o)),
    }
  }
  if (path === 'accountActiveOrders') {
    return {
      ...OK,
      orders: mine
        .filter((o) => isLive(state, o))
        .map((o) => lighterFakeOrderJson(state, o)),
    }
  }
  const owner = state.exchange.ownerOf(account) ?? ''
  const rows = state.markets
    .filter((m) => inMarket(m.marketId))
    .flatMap((m) =>
      state.exchange
        .funding(owner, m.symbol, new Date(0).toISOString())
        .map((p) => ({
          timestamp: Math.floor(Date.parse(p.time) / 1000),
          market_id: m.marketId,
          funding_id: 0,
          change: p.amountUsd,
          rate: p.rate,
          position_size: dec(p.positionSize).abs().toFixed(),
          position_side: dec(p.positionSize).isNegative() ? 'short' : 'long',
        })),
    )
  const limit = Number(q.get('limit') ?? 100)
  return { ...OK, position_fundings: rows.slice(-limit) }
}
