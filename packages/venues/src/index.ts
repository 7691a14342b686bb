// biome-ignore-all lint/performance/noBarrelFile: package entry point

export { asterClientOrderId } from './aster/adapter/asterClientOrderId.js'
export { AsterRejectedError } from './aster/adapter/asterRejectedError.js'
export { createAsterBudget } from './aster/adapter/asterTransport.js'
export {
  type AsterAdapter,
  type AsterAdapterOptions,
  type AsterAdapterUserStreams,
  type AsterBuilderFee,
  createAsterAdapter,
} from './aster/adapter/createAsterAdapter.js'
export {
  type AsterBinderOptions,
  createAsterBinder,
} from './aster/binder/createAsterBinder.js'
export {
  ASTER_MAX_BUILDER_FEE_RATE,
  ASTER_SIGNATURE_CHAIN_ID,
  type AsterApproveAgentInput,
  asterApproveAgentRequest,
} from './aster/binding/approveAgentRequest.js'
export { ASTER_USER_STREAMS_PER_IP } from './aster/limits/asterStreamLimits.js'
export {
  type AsterFilters,
  parseAsterFilters,
} from './aster/precision/asterFilters.js'
export {
  type AsterFilterError,
  type AsterOrderCheck,
  checkAsterOrder,
} from './aster/precision/checkAsterOrder.js'
export { roundAsterPrice } from './aster/precision/roundAsterPrice.js'
export {
  ASTER_AGENT_CHAIN_ID,
  asterMessageTypedData,
  recoverAsterMessageSigner,
  signAsterMessage,
} from './aster/signing/asterMessage.js'
export {
  type AsterNonceSource,
  createAsterNonces,
} from './aster/signing/asterNonces.js'
export { type AsterParam, formEncode } from './aster/signing/formEncode.js'
export {
  managementParams,
  managementTypedData,
} from './aster/signing/managementTypedData.js'
export {
  asterWsUrl,
  createAsterMarketStream,
} from './aster/stream/createAsterMarketStream.js'
export {
  type AsterUserStreams,
  type AsterUserStreamsOptions,
  createAsterUserStreams,
} from './aster/stream/createAsterUserStreams.js'
export type {
  PersonalSignRequest,
  TypedDataSignRequest,
} from './binding/signRequestKinds.js'
export { verifySignRequest } from './binding/verifySignRequest.js'
export {
  createHyperliquidAdapter,
  type HyperliquidAdapterOptions,
} from './hyperliquid/adapter/createHyperliquidAdapter.js'
export { createHlBudget } from './hyperliquid/adapter/hlTransport.js'
export {
  createHyperliquidBinder,
  HL_AGENT_NAME,
  type HyperliquidBinderOptions,
} from './hyperliquid/binder/createHyperliquidBinder.js'
export {
  HL_DEFAULT_SIGNATURE_CHAIN_ID,
  HL_MAX_BUILDER_FEE_RATE,
  type HlApproveAgentInput,
  type HlApproveBuilderFeeInput,
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from './hyperliquid/binding/approveAgentRequest.js'
export {
  type FormatHlPriceOptions,
  formatHlPrice,
  type HlMarketKind,
  isValidHlPrice,
} from './hyperliquid/precision/formatHlPrice.js'
export { formatHlSize } from './hyperliquid/precision/formatHlSize.js'
export { actionHash } from './hyperliquid/signing/actionHash.js'
export {
  HL_L1_DOMAIN,
  type HlL1ActionInput,
  l1TypedData,
  recoverL1Signer,
  type SignL1ActionParameters,
  signL1Action,
} from './hyperliquid/signing/l1Signature.js'
export {
  createNonceClock,
  type NonceClock,
  type NonceClockOptions,
} from './hyperliquid/signing/nonceClock.js'
export {
  cancelByCloidAction,
  type HlBuilderFee,
  type HlOrderAction,
  type HlOrderInput,
  type HlOrderWire,
  type HlTif,
  orderAction,
  scheduleCancelAction,
} from './hyperliquid/signing/orderAction.js'
export {
  type HlTypedDataTypes,
  type HlUserSignedActionObject,
  type HlUserSignedInput,
  recoverUserSignedSigner,
  type SignUserSignedActionParameters,
  signUserSignedAction,
  userSignedTypedData,
} from './hyperliquid/signing/userSignedAction.js'
export {
  createHlMarketStream,
  hlWsUrl,
} from './hyperliquid/stream/createHlMarketStream.js'
export {
  createLighterAdapter,
  type LighterAdapterOptions,
} from './lighter/adapter/createLighterAdapter.js'
export {
  createLighterNonceManager,
  type LighterKeyRef,
  type LighterNonceManager,
} from './lighter/adapter/createLighterNonceManager.js'
export { lighterClientOrderIndex } from './lighter/adapter/lighterClientOrderIndex.js'
export { LighterRejectedError } from './lighter/adapter/lighterRejectedError.js'
export {
  createLighterBudget,
  type LighterAuth,
  type LighterBudget,
} from './lighter/adapter/lighterTransport.js'
export {
  createLighterBinder,
  type LighterBinderOptions,
} from './lighter/binder/createLighterBinder.js'
export { lighterChangePubKeyRequest } from './lighter/binding/changePubKeyRequest.js'
export {
  LIGHTER_CONSENT_PREFIX,
  LIGHTER_INTEGRATOR_INDEX,
  lighterIntegratorConsentRequest,
} from './lighter/binding/integratorConsentRequest.js'
export {
  LIGHTER_SIGNER_CHAIN_IDS,
  lighterSignerChainId,
} from './lighter/binding/lighterSignerChainId.js'
export {
  isLighterVenue,
  type LighterVenue,
} from './lighter/binding/lighterVenue.js'
export {
  isServiceApiKeySlot,
  pickLighterApiKeySlot,
} from './lighter/binding/pickLighterApiKeySlot.js'
export {
  LIGHTER_TIERS,
  type LighterTier,
} from './lighter/limits/lighterLimits.js'
export {
  APPROVE_INTEGRATOR_TX_TYPE,
  type ApproveIntegratorParameters,
  approveIntegrator,
  approveIntegratorL1Message,
} from './lighter/signer/approveIntegrator.js'
export { createLighterAuthToken } from './lighter/signer/authToken.js'
export {
  CANCEL_ALL_ORDERS_TX_TYPE,
  cancelAllOrders,
  LIGHTER_CANCEL_ALL,
} from './lighter/signer/cancelAllOrders.js'
export {
  CANCEL_ORDER_TX_TYPE,
  cancelOrder,
} from './lighter/signer/cancelOrder.js'
export {
  CHANGE_PUB_KEY_TX_TYPE,
  type ChangePubKeyParameters,
  changePubKey,
  changePubKeyL1Message,
} from './lighter/signer/changePubKey.js'
export {
  CREATE_ORDER_TX_TYPE,
  type CreateOrderParameters,
  createOrder,
  LIGHTER_ORDER_TYPE,
  LIGHTER_TIME_IN_FORCE,
} from './lighter/signer/createOrder.js'
export { ecgfp5 } from './lighter/signer/ecgfp5.js'
export { ecgfp5Scalar } from './lighter/signer/ecgfp5Scalar.js'
export {
  generateLighterKeyPair,
  type LighterKeys,
  lighterPublicKey,
} from './lighter/signer/lighterKeys.js'
export { poseidon2 } from './lighter/signer/poseidon2.js'
export {
  type Fp5,
  quinticExtension,
} from './lighter/signer/quinticExtension.js'
export { type SchnorrSignature, schnorr } from './lighter/signer/schnorr.js'
export type { LighterTxAttributes } from './lighter/signer/txAttributes.js'
export type {
  LighterSignedTx,
  LighterTxHeader,
} from './lighter/signer/types.js'
export {
  marginFractionOf,
  UPDATE_LEVERAGE_TX_TYPE,
  updateLeverage,
} from './lighter/signer/updateLeverage.js'
export {
  createLighterAccountStreams,
  type LighterAccountStreams,
  type LighterAccountStreamsOptions,
  type LighterStreamedPositions,
} from './lighter/stream/createLighterAccountStreams.js'
export {
  createLighterMarketStream,
  lighterWsUrl,
} from './lighter/stream/createLighterMarketStream.js'
export {
  LIGHTER_STREAMED_ACCOUNTS_MAX,
  LIGHTER_WS_CODES,
  LIGHTER_WS_LIMITS,
  type LighterWsLimits,
} from './lighter/stream/lighterWsLimits.js'
export type { MarketStream } from './wire/marketStream.js'
