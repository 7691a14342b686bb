/**
 * The simulator: simulated venues (engine, market data, paper and RPC
 * adapters, faucet), the venues' protocol fakes and the simulated binder.
 * `dn up` and the tests use it; the production adapters (`@dn/venues`)
 * never load it.
 */
export type { AsterFakeSnapshot } from './asterFake/asterFakeSnapshot.js'
export type { AsterFakeAgent } from './asterFake/asterFakeState.js'
export {
  type AsterFake,
  type AsterFakeOptions,
  startAsterFake,
} from './asterFake/startAsterFake.js'
export { createSimBinders } from './createSimBinders.js'
export {
  createSimMarketData,
  type SimMarketDataOptions,
} from './createSimMarketData.js'
export type { FakeBucketUsage } from './fakeRateLimits.js'
export {
  type FaucetServer,
  type FaucetServerOptions,
  startFaucetServer,
} from './faucetServer.js'
export type { HlFakeSnapshot } from './hyperliquidFake/hlFakeSnapshot.js'
export type { HlFakeAgent } from './hyperliquidFake/hlFakeState.js'
export {
  type HyperliquidFake,
  type HyperliquidFakeOptions,
  startHyperliquidFake,
} from './hyperliquidFake/startHyperliquidFake.js'
export type { LighterFakeSnapshot } from './lighterFake/lighterFakeSnapshot.js'
export {
  type LighterFake,
  type LighterFakeOptions,
  startLighterFake,
} from './lighterFake/startLighterFake.js'
export { createPaperAdapter } from './paperAdapter.js'
export {
  type ChangePubKeyMessageInput,
  createSimBinder,
  type LighterKeyPair,
  type SimAuthorization,
  type SimBinder,
  type SimBinderOptions,
} from './simBinder.js'
export {
  createSimExchange,
  type SimAccountView,
  type SimExchange,
  type SimExchangeOptions,
  type SimExchangeStats,
} from './simExchange.js'
export { SIM_MARKETS, type SimMarket } from './simMarkets.js'
export {
  dispatchSimRpc,
  SIM_RPC_METHODS,
  type SimRpcMethod,
  type SimRpcRequest,
  type SimRpcResponse,
} from './simRpc.js'
export {
  createSimRpcAdapter,
  type SimRpcAdapterOptions,
} from './simRpcAdapter.js'
export type { SimFaults, SimLiquidation } from './simState.js'
export {
  readSimStateFile,
  SIM_STATE_VERSION,
  type SimFakeSnapshots,
  type SimStateFile,
  SimStateFileError,
  writeSimStateFile,
} from './simStateFile.js'
export {
  type SimStateSaver,
  startSimStateSaver,
} from './simStateSaver.js'
export type { SimStateSnapshot } from './simStateSnapshot.js'
export {
  createSimVenues,
  DEFAULT_FAUCET_USD,
  type SimVenues,
  type SimVenuesOptions,
  type SimVenuesSnapshot,
} from './simVenues.js'
export type { SimBook, SimLevel } from './syntheticBook.js'
