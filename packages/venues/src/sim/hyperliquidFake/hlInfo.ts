import { dec, decString } from '@dn/core'
import { clearinghouseState } from './hlClearinghouseState.js'
import { dexField, dexUniverse, fakeDexes, HlDexError } from './hlDexes.js'
import {
  accountExists,
  approvedBuilderFee,
  type HlFakeState,
} from './hlFakeState.js'
import {
  activeAssetData,
  portfolio,
  userAbstraction,
  userFees,
  userRateLimit,
} from './hlInfoAccount.js'
import { FILLS_PAGE, userFills, userFunding } from './hlInfoFills.js'
import {
  candleSnapshot,
  exchangeStatus,
  fundingHistory,
  HlFieldError,
  l2Book,
  predictedFundings,
} from './hlInfoMarket.js'
import {
  HlOidFieldError,
  historicalOrders,
  openOrders,
  orderStatus,
} from './hlInfoOrders.js'
import {
  spotClearinghouseState,
  spotMeta,
  spotMetaAndAssetCtxs,
} from './hlInfoSpot.js'
import { stepDecimals } from './hlOrderWire.js'

/** A bad `/info` body, answered with HTTP 422 like Hyperliquid. */
export class HlInfoError extends Error {
  override name = 'HlInfoError'
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * Answers one `/info` request.
 * @throws HlInfoError on an unknown type or a bad field
 */
export function handleInfo(
  state: HlFakeState,
  body: Record<string, unknown>,
): unknown {
  try {
    return answer(state, body)
  } catch (e) {
    if (e instanceof HlFieldError || e instanceof HlOidFieldError) {
      throw new HlInfoError(e.message)
    }
    throw e
  }
}

function answer(state: HlFakeState, body: Record<string, unknown>): unknown {
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
      return openOrders(
        state,
        user(body),
        dexOr422(state, body),
        body.type === 'frontendOpenOrders',
      )
    case 'historicalOrders':
      return historicalOrders(state, user(body))
    case 'spotMeta':
      return spotMeta()
    case 'spotMetaAndAssetCtxs':
      return spotMetaAndAssetCtxs()
    case 'spotClearinghouseState':
      user(body)
      return spotClearinghouseState()
    case 'l2Book':
      return l2Book(state, body)
    case 'predictedFundings':
      return predictedFundings(state)
    case 'fundingHistory':
      return fundingHistory(state, body)
    case 'candleSnapshot':
      return candleSnapshot(state, body)
    case 'userFees':
      return userFees(state, user(body))
    case 'userRateLimit':
      return userRateLimit(state, user(body))
    case 'activeAssetData': {
      const coin = body.coin
      if (typeof coin !== 'string' || !state.exchange.rules(coin)) {
        throw new HlInfoError(
          'Failed to deserialize the JSON body into the target type: coin',
        )
      }
      return activeAssetData(state, user(body), coin)
    }
    case 'portfolio':
      return portfolio(state, user(body))
    case 'userAbstraction':
      user(body)
      return userAbstraction()
    case 'exchangeStatus':
      return exchangeStatus(state)
    case 'userFunding':
      return userFunding(state, user(body), body.startTime, body.endTime)
    case 'userFills':
      return userFills(state, user(body), 0, Number.POSITIVE_INFINITY).slice(
        -FILLS_PAGE,
      )
    case 'userFillsByTime': {
      const { startTime, endTime } = body
      if (typeof startTime !== 'number') throw new HlFieldError('startTime')
      const end =
        typeof endTime === 'number' ? endTime : Number.POSITIVE_INFINITY
      // the oldest page first, as the venue pages forward in time
      return userFills(state, user(body), startTime, end).slice(0, FILLS_PAGE)
    }
    case 'userRole': {
      const who = user(body)
      // an approved agent is no account of its own: Hyperliquid names
      // the user it trades for
      for (const [of, agents] of state.agentsByUser) {
        for (const a of agents.values()) {
          if (a.address.toLowerCase() === who) {
            return { role: 'agent', data: { user: of } }
          }
        }
      }
      return { role: accountExists(state, who) ? 'user' : 'missing' }
    }
    case 'extraAgents':
      return [...(state.agentsByUser.get(user(body))?.values() ?? [])].map(
        (a) => ({ name: a.name, address: a.address, validUntil: a.validUntil }),
      )
    case 'maxBuilderFee': {
      const builder = address(body.builder, 'builder')
      return approvedBuilderFee(state, user(body), builder) ?? 0
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
