import {
  ApiKey,
  ApiKeyList,
  BindingError,
  CreateApiKeyBody,
  CreatedApiKey,
  CreatePerpOrderBody,
  CreateTaskBody,
  type DnErrorCode,
  EmptyBody,
  EmptyQuery,
  ErrorBody,
  Health,
  ListQuery,
  OrderAck,
  PerpOrderList,
  PerpOrderResponse,
  PrepareVenueBindingsBody,
  RequestLogList,
  ResizeTaskBody,
  ResolveAck,
  ResolvePerpOrderBody,
  RevokeApiKeyBody,
  SubmitVenueBindingsBody,
  TaskAck,
  TaskList,
  TaskResponse,
  VenueBindingBatch,
  WalletHeaders,
} from '@dn/core'
import * as v from 'valibot'
import {
  BINDING_ERRORS,
  KEY_COMMAND_ERRORS,
  KEY_READ_ERRORS,
  WALLET_BODY_ERRORS,
  WALLET_ERRORS,
} from './errorCodeSets.js'

/** Any valibot schema a route may name. */
export type RouteSchema = v.GenericSchema

/** How a route authenticates its caller. */
export type RouteAuth = 'apiKey' | 'wallet' | 'none'

/** Which per-key rate budget and request log a Bearer route belongs to. */
export type RouteFamily = 'strategy' | 'perp'

/** The OpenAPI tag a route is listed under. */
export type RouteTag =
  | 'Service'
  | 'Tasks'
  | 'Request logs'
  | 'Perpetual orders'
  | 'Venue bindings'
  | 'API keys'

/** One served route, as the OpenAPI document and tests see it. */
export interface RouteSpec {
  readonly method: 'GET' | 'POST'
  /** OpenAPI path; every `{param}` is a lowercase uuid */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly tag: RouteTag
  readonly auth: RouteAuth
  readonly family?: RouteFamily
  readonly request?: {
    readonly body?: RouteSchema
    readonly query?: RouteSchema
    readonly headers?: RouteSchema
  }
  /** true when the `Idempotency-Key` header is required */
  readonly idempotent: boolean
  readonly success: {
    readonly status: number
    readonly schema: RouteSchema
    readonly description: string
  }
  /** error codes the route may answer; its error statuses are theirs */
  readonly errors: readonly DnErrorCode[]
  /**
   * statuses the contract lists for the route that no code answers today
   * (documented as reserved)
   */
  readonly reservedStatuses?: readonly number[]
  /** body of every error status */
  readonly errorSchema: RouteSchema
}

/** The contract document itself, as `GET /openapi.json` returns it. */
export const OpenApiDocumentSchema = v.looseObject({
  openapi: v.string(),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
})

const strategyRead = {
  tag: 'Tasks',
  auth: 'apiKey',
  family: 'strategy',
  idempotent: false,
  errors: KEY_READ_ERRORS,
  errorSchema: ErrorBody,
} as const

const strategyCommand = {
  method: 'POST',
  tag: 'Tasks',
  auth: 'apiKey',
  family: 'strategy',
  idempotent: true,
  errors: KEY_COMMAND_ERRORS,
  errorSchema: ErrorBody,
} as const

const perpRead = {
  tag: 'Perpetual orders',
  auth: 'apiKey',
  family: 'perp',
  idempotent: false,
  errors: KEY_READ_ERRORS,
  errorSchema: ErrorBody,
} as const

const perpCommand = {
  method: 'POST',
  tag: 'Perpetual orders',
  auth: 'apiKey',
  family: 'perp',
  idempotent: true,
  errors: KEY_COMMAND_ERRORS,
  errorSchema: ErrorBody,
} as const

/**
 * Every route the service serves, in document order. The OpenAPI document
 * is generated from this table, and tests check the server against it.
 */
export const ROUTES = [
  {
    method: 'GET',
    path: '/health',
    operationId: 'getHealth',
    summary: 'Liveness of the service (not of credentials or venues)',
    tag: 'Service',
    auth: 'none',
    idempotent: false,
    success: { status: 200, schema: Health, description: 'The service runs' },
    errors: [],
    errorSchema: ErrorBody,
  },
  {
    method: 'GET',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    summary: 'This OpenAPI 3.1.1 contract',
    tag: 'Service',
    auth: 'none',
    idempotent: false,
    success: {
      status: 200,
      schema: OpenApiDocumentSchema,
      description: 'The OpenAPI document',
    },
    errors: [],
    errorSchema: ErrorBody,
  },
  {
    ...strategyRead,
    method: 'GET',
    path: '/v1/delta-neutral/tasks',
    operationId: 'listTasks',
    summary: "List the owner's tasks on venues the key grants",
    request: { query: ListQuery },
    success: { status: 200, schema: TaskList, description: 'One page' },
  },
  {
    ...strategyCommand,
    path: '/v1/delta-neutral/tasks',
    operationId: 'createTask',
    summary: 'Open a paired position (long on one venue, short on another)',
    request: { body: CreateTaskBody, query: EmptyQuery },
    success: { status: 202, schema: TaskAck, description: 'Task queued' },
  },
  {
    ...strategyRead,
    method: 'GET',
    path: '/v1/delta-neutral/tasks/{taskId}',
    operationId: 'getTask',
    summary: 'Read one task',
    request: { query: EmptyQuery },
    success: { status: 200, schema: TaskResponse, description: 'The task' },
  },
  {
    ...strategyCommand,
    path: '/v1/delta-neutral/tasks/{taskId}/cancel',
    operationId: 'cancelTask',
    summary: 'Cancel a pending task',
    request: { body: EmptyBody, query: EmptyQuery },
    success: { status: 202, schema: TaskAck, description: 'Task cancelled' },
  },
  {
    ...strategyCommand,
    path: '/v1/delta-neutral/tasks/{taskId}/close',
    operationId: 'closeTask',
    summary: 'Queue the close of a running task',
    request: { body: EmptyBody, query: EmptyQuery },
    success: { status: 202, schema: TaskAck, description: 'Close queued' },
  },
  {
    ...strategyCommand,
    path: '/v1/delta-neutral/tasks/{taskId}/resize',
    operationId: 'resizeTask',
    summary: 'Resize a running task to new total base targets',
    request: { body: ResizeTaskBody, query: EmptyQuery },
    success: { status: 202, schema: TaskAck, description: 'Resize queued' },
  },
  {
    ...strategyRead,
    tag: 'Request logs',
    method: 'GET',
    path: '/v1/requests',
    operationId: 'listStrategyRequests',
    summary: "The current key's latest 100 strategy-route requests",
    request: { query: EmptyQuery },
    success: {
      status: 200,
      schema: RequestLogList,
      description: 'Newest first',
    },
  },
  {
    ...perpRead,
    tag: 'Request logs',
    method: 'GET',
    path: '/v1/perp/requests',
    operationId: 'listPerpRequests',
    summary: "The current key's latest 100 direct-order requests",
    request: { query: EmptyQuery },
    success: {
      status: 200,
      schema: RequestLogList,
      description: 'Newest first',
    },
  },
  {
    ...perpRead,
    method: 'GET',
    path: '/v1/perp/orders',
    operationId: 'listPerpOrders',
    summary: "List the owner's orders on venues the key grants",
    request: { query: ListQuery },
    success: { status: 200, schema: PerpOrderList, description: 'One page' },
  },
  {
    ...perpCommand,
    path: '/v1/perp/orders',
    operationId: 'createPerpOrder',
    summary: 'Place a direct perpetual order on one venue',
    request: { body: CreatePerpOrderBody, query: EmptyQuery },
    success: { status: 202, schema: OrderAck, description: 'Order queued' },
  },
  {
    ...perpRead,
    method: 'GET',
    path: '/v1/perp/orders/{orderId}',
    operationId: 'getPerpOrder',
    summary: 'Read one order',
    request: { query: EmptyQuery },
    success: {
      status: 200,
      schema: PerpOrderResponse,
      description: 'The order',
    },
  },
  {
    ...perpCommand,
    path: '/v1/perp/orders/{orderId}/cancel',
    operationId: 'cancelPerpOrder',
    summary: 'Cancel an order (locally, or by queueing a venue cancel)',
    request: { body: EmptyBody, query: EmptyQuery },
    success: {
      status: 202,
      schema: OrderAck,
      description: '`cancelled`, or `cancel_queued` for a submitted order',
    },
  },
  {
    ...perpCommand,
    path: '/v1/perp/orders/{orderId}/resolve',
    operationId: 'resolvePerpOrder',
    summary: 'Resolve an expired `unknown` order by operator attestation',
    request: { body: ResolvePerpOrderBody, query: EmptyQuery },
    success: {
      status: 200,
      schema: ResolveAck,
      description: 'Resolution stored permanently',
    },
  },
  {
    method: 'POST',
    path: '/v1/venue-bindings/prepare',
    operationId: 'prepareVenueBindings',
    summary: 'Prepare venue bindings and the payloads the wallet must sign',
    tag: 'Venue bindings',
    auth: 'wallet',
    request: { body: PrepareVenueBindingsBody },
    idempotent: false,
    success: {
      status: 200,
      schema: VenueBindingBatch,
      description: 'Batch with immutable sign requests',
    },
    errors: [...BINDING_ERRORS, 'venue_account_not_found'],
    errorSchema: BindingError,
  },
  {
    method: 'POST',
    path: '/v1/venue-bindings/{bindingId}/submit',
    operationId: 'submitVenueBindings',
    summary: 'Submit venue signatures for a binding batch',
    tag: 'Venue bindings',
    auth: 'none',
    request: { body: SubmitVenueBindingsBody },
    idempotent: true,
    success: {
      status: 202,
      schema: VenueBindingBatch,
      description: 'Signatures durably accepted',
    },
    errors: BINDING_ERRORS,
    errorSchema: BindingError,
  },
  {
    method: 'GET',
    path: '/v1/venue-bindings/{bindingId}',
    operationId: 'getVenueBindingBatch',
    summary: 'Read a binding batch (persisted state only)',
    tag: 'Venue bindings',
    auth: 'wallet',
    request: { headers: WalletHeaders },
    idempotent: false,
    success: {
      status: 200,
      schema: VenueBindingBatch,
      description: 'The batch',
    },
    errors: BINDING_ERRORS,
    errorSchema: BindingError,
  },
  {
    method: 'POST',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    summary: 'Create a scoped API key (wallet-signed)',
    tag: 'API keys',
    auth: 'wallet',
    request: { body: CreateApiKeyBody, query: EmptyQuery },
    idempotent: false,
    success: {
      status: 201,
      schema: CreatedApiKey,
      description: 'The key; its secret is shown only here',
    },
    errors: [...WALLET_BODY_ERRORS, 'insufficient_bound_venues'],
    reservedStatuses: [403],
    errorSchema: ErrorBody,
  },
  {
    method: 'GET',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    summary: "List the wallet owner's API keys (wallet-signed headers)",
    tag: 'API keys',
    auth: 'wallet',
    request: { query: EmptyQuery, headers: WalletHeaders },
    idempotent: false,
    success: { status: 200, schema: ApiKeyList, description: 'The keys' },
    errors: [...WALLET_ERRORS, 'invalid_wallet_headers'],
    errorSchema: ErrorBody,
  },
  {
    method: 'POST',
    path: '/v1/api-keys/{keyId}/revoke',
    operationId: 'revokeApiKey',
    summary: 'Revoke an API key at once (wallet-signed)',
    tag: 'API keys',
    auth: 'wallet',
    request: { body: RevokeApiKeyBody, query: EmptyQuery },
    idempotent: false,
    success: { status: 200, schema: ApiKey, description: 'The revoked key' },
    errors: [
      ...WALLET_BODY_ERRORS,
      'invalid_path_id',
      'api_key_not_found',
      'api_key_revoked',
    ],
    reservedStatuses: [403],
    errorSchema: ErrorBody,
  },
] as const satisfies readonly RouteSpec[]
