export { buildProgram } from './cliProgram.js'
export { renderCliReference } from './cliReference.js'
export {
  composeProtocolVenues,
  PROTOCOL_VENUES,
  type ProtocolUrls,
  type ProtocolVenueOptions,
  protocolUrlsFromEnv,
  protocolVenueOptions,
} from './composeProtocolVenues.js'
export {
  type ComposeServerDepsOptions,
  composeServerDeps,
} from './composeServerDeps.js'
export { type ComposedVenues, composeVenues } from './composeVenues.js'
export {
  type ComposeWorkerDepsOptions,
  composeWorkerDeps,
} from './composeWorkerDeps.js'
export { boundHeapGrowth } from './heapGrowth.js'
export { deriveKey, loadMasterKey, parseMasterKey } from './masterKey.js'
export { openStore } from './openStore.js'
