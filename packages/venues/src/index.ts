// biome-ignore-all lint/performance/noBarrelFile: package entry point
export {
  createSimMarketData,
  type SimMarketDataOptions,
} from './sim/createSimMarketData.js'
export {
  type FaucetServer,
  type FaucetServerOptions,
  startFaucetServer,
} from './sim/faucetServer.js'
export { createPaperAdapter } from './sim/paperAdapter.js'
export {
  createSimExchange,
  type SimAccountView,
  type SimExchange,
  type SimExchangeOptions,
  type SimExchangeStats,
} from './sim/simExchange.js'
export { SIM_MARKETS, type SimMarket } from './sim/simMarkets.js'
export {
  dispatchSimRpc,
  SIM_RPC_METHODS,
  type SimRpcMethod,
  type SimRpcRequest,
  type SimRpcResponse,
} from './sim/simRpc.js'
export {
  createSimRpcAdapter,
  type SimRpcAdapterOptions,
} from './sim/simRpcAdapter.js'
export type { SimFaults, SimLiquidation } from './sim/simState.js'
export {
  createSimVenues,
  DEFAULT_FAUCET_USD,
  type SimVenues,
  type SimVenuesOptions,
} from './sim/simVenues.js'
export type { SimBook, SimLevel } from './sim/syntheticBook.js'
