import { type Decimal, dec, decString } from '@dn/core'
import { usd as usdOf } from '../fillOrder.js'
import { dexOfSymbol } from './hlDexes.js'
import { accountExists, type HlFakeState } from './hlFakeState.js'

/**
 * The USD balance of an isolated position's own account: its margin less
 * the notional bought at entry (a long's is negative) [unverified formula:
 * the docs show `rawUsd` without defining it].
 */
export function isolatedRawUsd(
  margin: Decimal,
  szi: string,
  entryPx: string,
): string {
  return usd(margin.sub(dec(szi).mul(entryPx)))
}

/**
 * `clearinghouseState` of one dex: the engine's account and positions in
 * the venue's shape, with each position's leverage as the engine keeps it
 * (`updateLeverage`), and the funding it paid.
 */
export function clearinghouseState(state: HlFakeState, u: string, dex: string) {
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
      const isolated = p.marginMode === 'isolated'
      // an isolated position holds what the engine reserved (and what
      // updateIsolatedMargin moved); a cross one its initial margin
      const margin = isolated
        ? dec(state.exchange.isolatedMargin(u, p.market))
        : value.div(p.leverage)
      const pnl = size.mul(mark.sub(p.entryPrice))
      ntl = ntl.add(value)
      used = used.add(margin)
      return {
        type: 'oneWay',
        position: {
          coin: p.market,
          szi: p.size,
          leverage: isolated
            ? {
                type: 'isolated',
                value: Number(p.leverage),
                rawUsd: isolatedRawUsd(margin, p.size, p.entryPrice),
              }
            : { type: 'cross', value: Number(p.leverage) },
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

const usd = (d: Decimal) => decString(usdOf(d))
