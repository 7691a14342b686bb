export {
  createSimMarketData,
  type SimMarketDataOptions,
} from './sim/createSimMarketData.js'
export { SIM_MARKETS, type SimMarket } from './sim/simMarkets.js'
