import { dec, decString } from '@dn/core'
import { isAddress } from 'viem'
import { param } from './asterFakeAuth.js'
import { recordBuilder } from './asterFakeBuilders.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import { MAX_NOTIONAL, settingOf } from './asterFakeLeverage.js'
import { filtersOf } from './asterFakeMarket.js'
import { type AsterFakeState, hasAccount } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const ok = { code: 200, msg: 'success' }

/**
 * `GET /fapi/v3/positionRisk`: a row for every listed symbol (or the one
 * asked), as the doc's One-way example shows a flat one (`positionAmt`
 * "0"), with the user's leverage and margin type there. In Hedge Mode
 * only held positions, LONG or SHORT by the side held ([unverified]: the
 * doc's Hedge example shows held rows only; the engine nets positions).
 */
export function positionRisk(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const symbol = param(pairs, 'symbol')
  if (symbol !== undefined) filtersOf(state, symbol)
  const held = hasAccount(state, user) ? state.exchange.positions(user) : []
  const hedge = state.hedge.has(user)
  return state.exchange
    .listed()
    .map((r) => r.symbol)
    .filter((s) => symbol === undefined || s === symbol)
    .flatMap((s) => {
      const p = held.find((h) => h.market === s)
      const setting = settingOf(state, user, s)
      const mark = state.exchange.quote(s).mark
      const row = (side: string, amt: string) => ({
        symbol: s,
        positionAmt: amt,
        entryPrice: p && amt !== '0' ? p.entryPrice : '0.0',
        markPrice: mark,
        unRealizedProfit:
          p && amt !== '0'
            ? decString(dec(mark).sub(p.entryPrice).mul(p.size))
            : '0',
        liquidationPrice: (amt !== '0' && p?.liquidationPrice) || '0',
        leverage: String(p && amt !== '0' ? p.leverage : setting.leverage),
        maxNotionalValue: MAX_NOTIONAL,
        marginType: p && amt !== '0' ? p.marginMode : setting.marginType,
        isolatedMargin: '0',
        isAutoAddMargin: 'false',
        positionSide: side,
        updateTime: p && amt !== '0' ? state.now() : 0,
      })
      if (!hedge) return [row('BOTH', p?.size ?? '0')]
      if (!p) return []
      return [row(dec(p.size).isNegative() ? 'SHORT' : 'LONG', p.size)]
    })
}

/**
 * `GET /fapi/v3/accountWithJoinMargin`: the account's USDT totals (the
 * engine keeps one collateral), the asset row and the held positions, as
 * Aster's Account Information v3 shapes them.
 */
export function accountInformation(state: AsterFakeState, user: string) {
  const exists = hasAccount(state, user)
  const a = exists ? state.exchange.account(user) : undefined
  const held = exists ? state.exchange.positions(user) : []
  let initial = dec(0)
  let pnl = dec(0)
  for (const p of held) {
    initial = initial.add(dec(p.size).abs().mul(p.markPrice).div(p.leverage))
    pnl = pnl.add(dec(p.markPrice).sub(p.entryPrice).mul(p.size))
  }
  const wallet = a?.collateralUsd ?? '0'
  const margin = a?.crossEquityUsd ?? '0'
  const available = a?.freeMarginUsd ?? '0'
  const totals = {
    totalInitialMargin: decString(initial),
    totalMaintMargin: decString(initial.div(2)),
    totalWalletBalance: wallet,
    totalUnrealizedProfit: decString(pnl),
    totalMarginBalance: margin,
    totalPositionInitialMargin: decString(initial),
    totalOpenOrderInitialMargin: '0',
    totalCrossWalletBalance: wallet,
    totalCrossUnPnl: decString(pnl),
    availableBalance: available,
    maxWithdrawAmount: available,
  }
  return {
    ...totals,
    assets: [
      {
        asset: 'USDT',
        walletBalance: wallet,
        unrealizedProfit: totals.totalUnrealizedProfit,
        marginBalance: margin,
        maintMargin: totals.totalMaintMargin,
        initialMargin: totals.totalInitialMargin,
        positionInitialMargin: totals.totalPositionInitialMargin,
        openOrderInitialMargin: '0',
        crossWalletBalance: wallet,
        crossUnPnl: totals.totalCrossUnPnl,
        availableBalance: available,
        maxWithdrawAmount: available,
        updateTime: state.now(),
      },
    ],
    positions: held.map((p) => ({
      symbol: p.market,
      positionAmt: p.size,
      entryPrice: p.entryPrice,
      unrealizedProfit: decString(
        dec(p.markPrice).sub(p.entryPrice).mul(p.size),
      ),
      leverage: p.leverage,
      isolated: p.marginMode === 'isolated',
      positionSide: 'BOTH',
      updateTime: state.now(),
    })),
  }
}

/** `GET` / `POST /fapi/v3/positionSide/dual`. */
export function positionMode(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
  method: string,
) {
  if (method === 'GET') return { dualSidePosition: state.hedge.has(user) }
  const v = param(pairs, 'dualSidePosition')
  if (v !== 'true' && v !== 'false') throw mandatory('dualSidePosition')
  const hedge = v === 'true'
  if (hedge === state.hedge.has(user)) {
    throw new AsterFakeError(-4059, 'No need to change position side.')
  }
  if (hasAccount(state, user)) {
    if (state.exchange.openOrders(user).length > 0) {
      throw new AsterFakeError(
        -4067,
        'Position side cannot be changed if there exists open orders.',
      )
    }
    if (state.exchange.positions(user).length > 0) {
      throw new AsterFakeError(
        -4068,
        'Position side cannot be changed if there exists position.',
      )
    }
  }
  if (hedge) state.hedge.add(user)
  else state.hedge.delete(user)
  return ok
}

/** `GET /fapi/v3/agent`: the user's API wallets. */
export function agents(state: AsterFakeState, user: string) {
  return [...(state.agents.get(user)?.values() ?? [])].map((a) => ({
    ...a,
    source: 'API',
    canRead: true,
  }))
}

/**
 * `POST /fapi/v3/approveAgent` after the main-wallet signature checked
 * out: records the agent and, when the builder fields were signed, the
 * builder with its fee cap.
 */
export function approveAgent(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const address = param(pairs, 'agentAddress')
  const expired = Number(param(pairs, 'expired'))
  if (!address || !isAddress(address, { strict: false })) {
    throw mandatory('agentAddress')
  }
  if (address.toLowerCase() === user) throw invalidParam('agentAddress')
  if (!Number.isSafeInteger(expired) || expired <= state.now()) {
    throw invalidParam('expired')
  }
  const flag = (k: string) => (param(pairs, k) ?? '').toLowerCase() === 'true'
  const list = state.agents.get(user) ?? new Map()
  list.set(address.toLowerCase(), {
    agentAddress: address,
    agentName: param(pairs, 'agentName') ?? '',
    ipWhitelist: param(pairs, 'ipWhitelist') ?? '',
    expired,
    canSpotTrade: flag('canSpotTrade'),
    canPerpTrade: flag('canPerpTrade'),
    canWithdraw: flag('canWithdraw'),
  })
  state.agents.set(user, list)
  const builder = param(pairs, 'builder')
  const maxFeeRate = param(pairs, 'maxFeeRate')
  if (builder !== undefined && maxFeeRate !== undefined) {
    if (!isAddress(builder, { strict: false })) throw invalidParam('builder')
    if (!/^\d+(\.\d+)?$/.test(maxFeeRate)) throw invalidParam('maxFeeRate')
    const name = param(pairs, 'builderName') ?? ''
    recordBuilder(state, user, builder, maxFeeRate, name)
  }
  return ok
}
