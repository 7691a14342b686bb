export {
  createDnClient,
  type DnClient,
  type DnClientOptions,
} from './createDnClient.js'
export { DnApiError } from './errors/DnApiError.js'
export { DnError } from './errors/DnError.js'
export { DnNetworkError } from './errors/DnNetworkError.js'
export { DnProtocolError } from './errors/DnProtocolError.js'
export { DnTimeoutError } from './errors/DnTimeoutError.js'
export { DnWaitError } from './errors/DnWaitError.js'
export { type NetworkReason, networkReason } from './errors/networkReason.js'
export {
  DN_ERROR_CODES,
  PERP_ORDER_STATUSES,
  TASK_STATUSES,
} from './generated/openapiTypes.js'
export type { OrderWaitOptions } from './orderApi.js'
export type { Page } from './paginate.js'
export type { WaitOptions } from './pollUntil.js'
export type { TaskWaitOptions } from './taskApi.js'
export {
  createTransport,
  type RequestOptions,
  type TransportOptions,
} from './transport.js'
export type * from './types.js'
export type { BindingWaitOptions } from './waitForBinding.js'
export {
  canonicalJson,
  type MessageSigner,
  newNonce,
  signWalletAction,
  type WalletSigner,
} from './walletAuth.js'
