import type { MarketRules } from '@dn/core'
import type { HlFakeState } from './hlFakeState.js'

/** A bad `dex` field, or a dex the venue does not have. */
export class HlDexError extends Error {
  override name = 'HlDexError'
}

/** The dex a listed symbol belongs to: its prefix, `""` for the main dex. */
export function dexOfSymbol(symbol: string): string {
  const colon = symbol.indexOf(':')
  return colon < 0 ? '' : symbol.slice(0, colon)
}

/**
 * The fake's perp dexes in `perpDexs` order: the main dex first, then
 * each builder-deployed (HIP-3) dex in the order its markets are listed.
 */
export function fakeDexes(state: HlFakeState): string[] {
  const out = ['']
  for (const r of state.exchange.listed()) {
    const dex = dexOfSymbol(r.symbol)
    if (!out.includes(dex)) out.push(dex)
  }
  return out
}

/** One dex's universe in listing order: index = position in its meta. */
export function dexUniverse(state: HlFakeState, dex: string): MarketRules[] {
  if (!fakeDexes(state).includes(dex)) {
    throw new HlDexError(`Unknown perp dex: ${dex}`)
  }
  return state.exchange.listed().filter((r) => dexOfSymbol(r.symbol) === dex)
}

/**
 * The market an order's asset id names: main-dex index below 100000, else
 * 100000 + 10000 × dex position + index (docs `asset-ids`).
 */
export function marketOfAsset(
  state: HlFakeState,
  asset: unknown,
): MarketRules | undefined {
  if (typeof asset !== 'number' || !Number.isSafeInteger(asset) || asset < 0) {
    return undefined
  }
  if (asset < 10_000) return dexUniverse(state, '')[asset]
  if (asset < 110_000) return undefined
  const dex = fakeDexes(state)[Math.floor((asset - 100_000) / 10_000)]
  return dex ? dexUniverse(state, dex)[asset % 10_000] : undefined
}

/** The optional `dex` field of an `/info` body; `""` when absent. */
export function dexField(body: Record<string, unknown>): string {
  const dex = body.dex ?? ''
  if (typeof dex !== 'string') {
    throw new HlDexError(
      'Failed to deserialize the JSON body into the target type: dex',
    )
  }
  return dex
}

/** The asset id of a listed symbol: the inverse of `marketOfAsset`. */
export function assetOfSymbol(state: HlFakeState, symbol: string): number {
  const dex = dexOfSymbol(symbol)
  const index = dexUniverse(state, dex).findIndex((r) => r.symbol === symbol)
  if (dex === '') return index
  return 100_000 + 10_000 * fakeDexes(state).indexOf(dex) + index
}
