import { optInt, type Query } from './lighterFakeQuery.js'

/** USDC's asset id on Lighter (ccxt's recorded `assetDetails` sample). */
const USDC_ASSET_ID = 3

/**
 * `assetDetails`: the one asset the fake knows, USDC, the collateral of
 * every account (ccxt's `loadMarkets` reads it). Decimals, minimums and
 * margin mode as ccxt's recorded sample of the venue shows them; not
 * modelled, so empty or 0: the L1 token address, lending parameters,
 * supply caps and totals. Another `asset_id` lists nothing; none: all.
 */
export function assetDetails(q: Query) {
  const id = optInt(q, 'asset_id', USDC_ASSET_ID)
  const usdc = {
    asset_id: USDC_ASSET_ID,
    symbol: 'USDC',
    l1_decimals: 6,
    decimals: 6,
    min_transfer_amount: '1.000000',
    min_withdrawal_amount: '1.000000',
    margin_mode: 'enabled',
    index_price: '1.000000',
    price_decimals: 6,
    l1_address: '',
    loan_to_value: '0',
    liquidation_threshold: '0',
    liquidation_factor: '0',
    liquidation_fee: '0',
    global_supply_cap: '0',
    user_supply_cap: '0',
    total_supplied: '0',
    multiplier: '1',
  }
  return {
    code: 200,
    asset_details: id === USDC_ASSET_ID ? [usdc] : [],
  }
}
