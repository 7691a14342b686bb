export {
  createDnClient,
  type DnClient,
  type DnClientOptions,
  type WaitOptions,
} from './createDnClient.js'
export { DnApiError, DnTimeoutError } from './errors.js'
export { DN_ERROR_CODES } from './generated/openapiTypes.js'
export {
  createTransport,
  type RequestOptions,
  type TransportOptions,
} from './transport.js'
export type * from './types.js'
export {
  canonicalJson,
  type MessageSigner,
  newNonce,
  signWalletAction,
} from './walletAuth.js'
