import { type Decimal, dec, decString, type VenueOrder } from '@dn/core'
import {
  dexField,
  dexOfSymbol,
  dexUniverse,
  fakeDexes,
  HlDexError,
} from './hlDexes.js'
import {
  accountExists,
  type HlFakeOrder,
  type HlFakeState,
} from './hlFakeState.js'

/** A bad `/info` body, answered with HTTP 422 like Hyperliquid. */
export class HlInfoError extends Error {
  override name = 'HlInfoError'
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const CLOID = /^0x[0-9a-fA-F]{32}$/

/** Decimals of a step such as `0.0001` (4). */
export function stepDecimals(step: string): number {
  return dec(step).decimalPlaces()
}

/**
 * Answers one `/info` request.
 * @throws HlInfoError on an unknown type or a bad field
 */
export function handleInfo(
  state: HlFakeState,
  body: Record<string, unknown>,
): unknown {
  switch (body.type) {
    case 'meta':
      return meta(state, dexOr422(state, body))
    case 'metaAndAssetCtxs': {
      const dex = dexOr422(state, body)
      return [meta(state, dex), assetCtxs(state, dex)]
    }
    case 'perpDexs':
      return fakeDexes(state).map((name) =>
        name === ''
          ? null
          : {
              name,
              fullName: `${name} (simulated)`,
              deployer: '0x0000000000000000000000000000000000000000',
              oracleUpdater: null,
            },
      )
    case 'allMids':
      return Object.fromEntries(
        dexUniverse(state, dexOr422(state, body)).map((r) => [
          r.symbol,
          state.exchange.quote(r.symbol).mark,
        ]),
      )
    case 'clearinghouseState':
      return clearinghouseState(state, user(body), dexOr422(state, body))
    case 'orderStatus':
      return orderStatus(state, user(body), body.oid)
    case 'openOrders':
    case 'frontendOpenOrders':
      return openOrders(state, user(body), dexOr422(state, body))
    case 'userFunding':
      return userFunding(state, user(body), body.startTime, body.endTime)
    case 'userFills':
      return userFills(state, user(body), 0, Number.POSITIVE_INFINITY).slice(
        -FILLS_PAGE,
      )
    case 'userFillsByTime': {
      const { startTime, endTime } = body
      if (typeof startTime !== 'number') {
        throw new HlInfoError(
          'Failed to deserialize the JSON body into the target type: startTime',
        )
      }
      const end =
        typeof endTime === 'number' ? endTime : Number.POSITIVE_INFINITY
      // the oldest page first, as the venue pages forward in time
      return userFills(state, user(body), startTime, end).slice(0, FILLS_PAGE)
    }
    case 'userRole':
      return { role: accountExists(state, user(body)) ? 'user' : 'missing' }
    case 'extraAgents':
      return [...(state.agentsByUser.get(user(body))?.values() ?? [])].map(
        (a) => ({ name: a.name, address: a.address, validUntil: a.validUntil }),
      )
    case 'maxBuilderFee': {
      const builder = address(body.builder, 'builder')
      return state.builderFees.get(`${user(body)}|${builder}`) ?? 0
    }
    default:
      throw new HlInfoError(
        `Failed to deserialize the JSON body into the target type: unknown variant \`${String(body.type)}\``,
      )
  }
}

/** The body's dex, which must exist; a bad one is a 422 like any field. */
function dexOr422(state: HlFakeState, body: Record<string, unknown>): string {
  try {
    const dex = dexField(body)
    dexUniverse(state, dex)
    return dex
  } catch (e) {
    if (e instanceof HlDexError) throw new HlInfoError(e.message)
    throw e
  }
}

function user(body: Record<string, unknown>): string {
  return address(body.user, 'user')
}

function address(v: unknown, name: string): string {
  if (typeof v !== 'string' || !ADDRESS.test(v)) {
    throw new HlInfoError(
      `Failed to deserialize the JSON body into the target type: ${name}: invalid address`,
    )
  }
  return v.toLowerCase()
}

function meta(state: HlFakeState, dex: string) {
  return {
    universe: dexUniverse(state, dex).map((r) => ({
      name: r.symbol,
      szDecimals: stepDecimals(r.sizeStep),
      maxLeverage: r.maxLeverage,
      marginTableId: r.maxLeverage,
    })),
    marginTables: [],
    collateralToken: 0,
  }
}

function assetCtxs(state: HlFakeState, dex: string) {
  return dexUniverse(state, dex).map((r) => {
    const q = state.exchange.quote(r.symbol)
    const mid = decString(dec(q.bid).add(q.ask).div(2))
    return {
      funding: q.fundingRateHourly,
      openInterest: '0',
      prevDayPx: q.mark,
      dayNtlVlm: '0',
      premium: '0',
      oraclePx: q.mark,
      markPx: q.mark,
      midPx: mid,
      impactPxs: [q.bid, q.ask],
      dayBaseVlm: '0',
    }
  })
}

function clearinghouseState(state: HlFakeState, u: string, dex: string) {
  const time = state.now()
  if (!accountExists(state, u)) {
    const zero = {
      accountValue: '0',
      totalNtlPos: '0',
      totalRawUsd: '0',
      totalMarginUsed: '0',
    }
    return {
      marginSummary: zero,
      crossMarginSummary: zero,
      crossMaintenanceMarginUsed: '0',
      withdrawable: '0',
      assetPositions: [],
      time,
    }
  }
  const account = state.exchange.account(u)
  let ntl: Decimal = dec(0)
  let used: Decimal = dec(0)
  const assetPositions = state.exchange
    .positions(u)
    .filter((p) => dexOfSymbol(p.market) === dex)
    .map((p) => {
      const size = dec(p.size)
      const mark = dec(p.markPrice)
      const value = size.abs().mul(mark)
      const margin = value.div(p.leverage)
      const pnl = size.mul(mark.sub(p.entryPrice))
      ntl = ntl.add(value)
      used = used.add(margin)
      return {
        type: 'oneWay',
        position: {
          coin: p.market,
          szi: p.size,
          leverage: { type: p.marginMode, value: Number(p.leverage) },
          entryPx: p.entryPrice,
          positionValue: usd(value),
          unrealizedPnl: usd(pnl),
          returnOnEquity: margin.isZero()
            ? '0'
            : decString(pnl.div(margin).toDecimalPlaces(6)),
          liquidationPx: p.liquidationPrice,
          marginUsed: usd(margin),
          maxLeverage: state.exchange.rules(p.market)?.maxLeverage ?? 0,
          cumFunding: cumFunding(state, u, p.market, p.size),
        },
      }
    })
  const summary = {
    accountValue: account.crossEquityUsd,
    totalNtlPos: usd(ntl),
    totalRawUsd: account.collateralUsd,
    totalMarginUsed: usd(used),
  }
  return {
    marginSummary: summary,
    crossMarginSummary: summary,
    crossMaintenanceMarginUsed: usd(used.div(2)),
    withdrawable: account.freeMarginUsd,
    assetPositions,
    time,
  }
}

/**
 * Funding the user paid on `coin` (positive: paid, as the venue shows it):
 * over all time, and over the trailing payments on this side (since open)
 * and at this size (since change), as far as the payments show them.
 */
function cumFunding(state: HlFakeState, u: string, coin: string, szi: string) {
  const paid = state.exchange.funding(u, coin, new Date(0).toISOString())
  let allTime = dec(0)
  for (const f of paid) allTime = allTime.sub(f.amountUsd)
  const trailing = (same: (size: Decimal) => boolean) => {
    let sum = dec(0)
    for (let i = paid.length - 1; i >= 0; i--) {
      const f = paid[i] as (typeof paid)[number]
      if (!same(dec(f.positionSize))) break
      sum = sum.sub(f.amountUsd)
    }
    return usd(sum)
  }
  const size = dec(szi)
  return {
    allTime: usd(allTime),
    sinceOpen: trailing((s) => s.isPositive() === size.isPositive()),
    sinceChange: trailing((s) => s.eq(size)),
  }
}

function usd(d: Decimal): string {
  return decString(d.toDecimalPlaces(6))
}

/** Finds a recorded order by numeric oid or by cloid hex. */
function findOrder(
  state: HlFakeState,
  u: string,
  oid: unknown,
): HlFakeOrder | undefined {
  let n: number | undefined
  if (typeof oid === 'number') n = oid
  else if (typeof oid === 'string' && CLOID.test(oid)) {
    n = state.oidByCloid.get(`${u}|${oid.toLowerCase()}`)
  } else if (typeof oid === 'string' && /^\d+$/.test(oid)) n = Number(oid)
  else {
    throw new HlInfoError(
      'Failed to deserialize the JSON body into the target type: oid',
    )
  }
  const rec = n === undefined ? undefined : state.ordersByOid.get(n)
  return rec?.user === u ? rec : undefined
}

function orderStatus(state: HlFakeState, u: string, oid: unknown) {
  const rec = findOrder(state, u, oid)
  const view =
    rec && accountExists(state, u)
      ? state.exchange.order(u, rec.engineId)
      : null
  if (!rec || !view) return { status: 'unknownOid' }
  return {
    status: 'order',
    order: {
      order: wireOrder(rec, view),
      status: hlStatus(view),
      statusTimestamp: state.now(),
    },
  }
}

function wireOrder(rec: HlFakeOrder, view: VenueOrder) {
  return {
    coin: rec.coin,
    side: rec.side,
    limitPx: rec.limitPx,
    sz: decString(dec(view.size).sub(view.filledBase)),
    oid: rec.oid,
    timestamp: rec.timestamp,
    triggerCondition: 'N/A',
    isTrigger: false,
    triggerPx: '0.0',
    children: [],
    isPositionTpsl: false,
    reduceOnly: false,
    orderType: 'Limit',
    origSz: rec.origSz,
    tif: 'Gtc',
    cloid: rec.cloid,
  }
}

/** Hyperliquid's status word of an engine order. */
export function hlStatus(view: VenueOrder): string {
  if (view.state === 'open' || view.state === 'partially_filled') return 'open'
  if (view.state === 'filled') return 'filled'
  if (view.state === 'rejected') return 'rejected'
  if (view.venueStatus.endsWith('Canceled')) return view.venueStatus
  if (view.venueStatus === 'scheduledCancel') return view.venueStatus
  return 'canceled'
}

function openOrders(state: HlFakeState, u: string, dex: string) {
  if (!accountExists(state, u)) return []
  const byEngineId = new Map(
    [...state.ordersByOid.values()]
      .filter((r) => r.user === u)
      .map((r) => [r.engineId, r]),
  )
  return state.exchange.openOrders(u).flatMap((view) => {
    const rec = byEngineId.get(view.clientOrderId)
    if (!rec || dexOfSymbol(rec.coin) !== dex) return []
    const w = wireOrder(rec, view)
    return [
      {
        coin: w.coin,
        side: w.side,
        limitPx: w.limitPx,
        sz: w.sz,
        oid: w.oid,
        timestamp: w.timestamp,
        origSz: w.origSz,
        ...(rec.cloid ? { cloid: rec.cloid } : {}),
      },
    ]
  })
}

/** Hyperliquid answers at most this many fills per request. */
const FILLS_PAGE = 2000

/** The user's fills in [start, end], oldest first, in the venue's shape. */
function userFills(state: HlFakeState, u: string, start: number, end: number) {
  if (!accountExists(state, u)) return []
  const byEngineId = new Map(
    [...state.ordersByOid.values()]
      .filter((o) => o.user === u)
      .map((o) => [o.engineId, o]),
  )
  return state.exchange
    .fills(u, start)
    .filter((f) => f.time <= end)
    .flatMap((f) => {
      const rec = byEngineId.get(f.clientOrderId)
      if (!rec) return []
      return [
        {
          coin: rec.coin,
          px: f.price,
          sz: f.size,
          side: rec.side,
          time: f.time,
          startPosition: '0.0',
          dir: rec.side === 'B' ? 'Open Long' : 'Open Short',
          closedPnl: f.realizedPnl,
          hash: `0x${f.tradeId.toString(16).padStart(64, '0')}`,
          oid: rec.oid,
          crossed: !f.maker,
          fee: f.fee,
          tid: f.tradeId,
          feeToken: 'USDC',
          ...(rec.cloid ? { cloid: rec.cloid } : {}),
        },
      ]
    })
}

function userFunding(
  state: HlFakeState,
  u: string,
  startTime: unknown,
  endTime: unknown,
) {
  if (typeof startTime !== 'number') {
    throw new HlInfoError(
      'Failed to deserialize the JSON body into the target type: startTime',
    )
  }
  if (!accountExists(state, u)) return []
  const end = typeof endTime === 'number' ? endTime : Number.POSITIVE_INFINITY
  const since = new Date(startTime).toISOString()
  return state.exchange
    .listed()
    .flatMap((r) => state.exchange.funding(u, r.symbol, since))
    .map((p) => ({ p, time: Date.parse(p.time) }))
    .filter(({ time }) => time <= end)
    .sort((a, b) => a.time - b.time)
    .map(({ p, time }) => ({
      time,
      hash: '0x0000000000000000000000000000000000000000000000000000000000000000',
      delta: {
        type: 'funding',
        coin: p.market,
        usdc: p.amountUsd,
        szi: p.positionSize,
        fundingRate: p.rate,
        nSamples: null,
      },
    }))
}
