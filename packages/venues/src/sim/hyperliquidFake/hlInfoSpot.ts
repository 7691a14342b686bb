/**
 * Spot reads of a perp-only fake: Hyperliquid lists USDC as spot token 0
 * (the perps' collateral, `meta.collateralToken: 0`), and the fake lists
 * no spot pairs. ccxt's `loadMarkets` reads `spotMeta` (currencies) and
 * `spotMetaAndAssetCtxs` (spot markets), so both answer in the venue's
 * shapes (nktkas `spotMeta`, `spotMetaAndAssetCtxs`): `{universe, tokens}`
 * and `[spotMeta, assetCtxs]`. `spotClearinghouseState` answers no
 * balances: the fake keeps collateral on the perp side only.
 *
 * @module
 */

/** USDC as the venue lists it in `spotMeta.tokens` (mainnet token id). */
const USDC = Object.freeze({
  name: 'USDC',
  szDecimals: 8,
  weiDecimals: 8,
  index: 0,
  tokenId: '0x6d1e7cde53ba9467b783cb7c530ce054',
  isCanonical: true,
  evmContract: null,
  fullName: null,
  deployerTradingFeeShare: '0.0',
})

/** `spotMeta`: no pairs, the USDC token. */
export function spotMeta() {
  return { universe: [], tokens: [USDC] }
}

/** `spotMetaAndAssetCtxs`: `spotMeta` and no pair contexts. */
export function spotMetaAndAssetCtxs() {
  return [spotMeta(), []]
}

/** `spotClearinghouseState`: no spot balances. */
export function spotClearinghouseState() {
  return { balances: [] }
}
