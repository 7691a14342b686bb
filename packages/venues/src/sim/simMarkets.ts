import type { MarketRules, VenueId } from '@dn/core'

/** A listed market of a simulated venue, with its starting mark. */
export interface SimMarket extends MarketRules {
  readonly initialMark: string
  readonly fundingRateHourly: string
}

type Row = [
  symbol: string,
  tick: string,
  step: string,
  minNotional: string,
  minBase: string,
  maxLev: number,
  mark: string,
  funding: string,
]

function venueMarkets(
  venue: VenueId,
  rows: readonly Row[],
  maxSigFigs: number | null = null,
): SimMarket[] {
  return rows.map((r) => ({
    venue,
    symbol: r[0],
    tickSize: r[1],
    maxSigFigs,
    sizeStep: r[2],
    minNotionalUsd: r[3],
    minBase: r[4],
    maxLeverage: r[5],
    initialMark: r[6],
    fundingRateHourly: r[7],
  }))
}

/**
 * Markets each simulated venue lists, in that venue's own symbol form and
 * precision: Hyperliquid bare coins and `dex:COIN` builder markets, Lighter
 * bare symbols, Aster `...USDT` pairs. Funding differs by venue so paired
 * positions have a spread to earn.
 */
export const SIM_MARKETS: readonly SimMarket[] = [
  ...venueMarkets(
    'hl',
    [
      // tick = 10^-(6 - szDecimals), plus five significant figures
      ['BTC', '0.1', '0.00001', '10', '0.00001', 40, '100000', '0.0000125'],
      ['ETH', '0.01', '0.0001', '10', '0.0001', 25, '3500', '0.0000125'],
      ['SOL', '0.0001', '0.01', '10', '0.01', 20, '150', '0.00002'],
      ['xyz:TSLA', '0.001', '0.001', '10', '0.001', 10, '250', '0.00001'],
    ],
    5,
  ),
  ...['lighter', 'lighter-mainnet'].flatMap((v) =>
    venueMarkets(v as VenueId, [
      ['BTC', '0.1', '0.00001', '10', '0.0002', 50, '100000', '0.00004'],
      ['ETH', '0.01', '0.0001', '10', '0.005', 50, '3500', '0.00004'],
      ['SOL', '0.001', '0.001', '10', '0.05', 25, '150', '0.00005'],
    ]),
  ),
  ...venueMarkets('aster', [
    ['BTCUSDT', '0.1', '0.001', '5', '0.001', 125, '100000', '0.00001'],
    ['ETHUSDT', '0.01', '0.001', '5', '0.001', 100, '3500', '0.00001'],
    ['SOLUSDT', '0.01', '0.01', '5', '0.01', 50, '150', '0.000015'],
  ]),
]
