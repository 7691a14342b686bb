import { createApiKeyApi } from './apiKeyApi.js'
import { bindVenues, readBinding } from './bindVenues.js'
import { createOrderApi } from './orderApi.js'
import { createTaskApi } from './taskApi.js'
import { createTransport, type TransportOptions } from './transport.js'
import type {
  BalanceList,
  BindingBatchStatus,
  BindingTarget,
  ListQuery,
  MarketList,
  PerpOrderStatus,
  PositionList,
  RequestLog,
  TaskStatus,
  Venue,
} from './types.js'
import { type BindingWaitOptions, waitForBinding } from './waitForBinding.js'
import type { WalletSigner } from './walletAuth.js'

export interface DnClientOptions extends TransportOptions {
  /** BINDING_AUTH_DOMAIN of the service @default 'dn' */
  readonly authDomain?: string
}

/**
 * Typed client for every route; commands are retried safely. Grouped
 * (`client.tasks.list`, `client.orders.waitFor`, ...) with the flat methods
 * of earlier versions kept as aliases.
 *
 * @example
 * const dn = createDnClient({ baseUrl, apiKey })
 * for await (const t of dn.tasks.list({ status: 'running' })) console.log(t)
 */
export function createDnClient(o: DnClientOptions) {
  const request = createTransport(o)
  const domain = o.authDomain ?? 'dn'
  const tasks = createTaskApi(request)
  const orders = createOrderApi(request)
  const apiKeys = createApiKeyApi(request, domain)
  const listMarkets = (q: { venue: Venue }) =>
    request<MarketList>('GET', '/v1/markets', { query: { venue: q.venue } })
  const listRequests = (q: { perp?: boolean } = {}) =>
    request<{ requests: RequestLog[] }>(
      'GET',
      q.perp ? '/v1/perp/requests' : '/v1/requests',
    ).then((r) => r.requests)

  return {
    tasks,
    orders,
    apiKeys,
    /**
     * A granted venue's listed markets: rules and current quote. Callable
     * itself (older form) or as `markets.list`.
     */
    markets: Object.assign(listMarkets, { list: listMarkets }),
    /** The key's latest strategy requests, or with `perp` its order requests. */
    requests: { list: listRequests },
    health: () => request<{ ok: true }>('GET', '/health'),
    /** The service's OpenAPI 3.1.1 contract. */
    openApiDocument: () =>
      request<Record<string, unknown>>('GET', '/openapi.json'),

    listTasks: (q: ListQuery<TaskStatus> = {}) => tasks.page(q),
    createTask: tasks.create,
    getTask: tasks.get,
    taskHistory: tasks.history,
    cancelTask: tasks.cancel,
    closeTask: tasks.close,
    resizeTask: tasks.resize,
    waitForTask: tasks.waitFor,
    listOrders: (q: ListQuery<PerpOrderStatus> = {}) => orders.page(q),
    createOrder: orders.create,
    getOrder: orders.get,
    cancelOrder: orders.cancel,
    resolveOrder: orders.resolve,
    waitForOrder: orders.waitFor,
    /** Positions of the owner's bound accounts (one venue, or all granted), as the worker last read them. */
    positions: (q: { venue?: Venue | undefined } = {}) =>
      request<PositionList>('GET', '/v1/positions', {
        query: { venue: q.venue },
      }),
    /** Collateral of the owner's bound accounts (one venue, or all granted), as last read. */
    balances: (q: { venue?: Venue | undefined } = {}) =>
      request<BalanceList>('GET', '/v1/balances', {
        query: { venue: q.venue },
      }),
    strategyRequests: () => listRequests(),
    perpRequests: () => listRequests({ perp: true }),

    createApiKey: apiKeys.create,
    listApiKeys: apiKeys.list,
    revokeApiKey: apiKeys.revoke,
    listBindings: apiKeys.bindings,
    listVenueAccounts: apiKeys.venueAccounts,
    /** Binds venues for the wallet; resolves when every venue settled. */
    bindVenues: (
      signer: WalletSigner,
      targets: readonly BindingTarget[],
      opts?: Parameters<typeof bindVenues>[4],
    ) => bindVenues(request, domain, signer, targets, opts),
    readBinding: (signer: WalletSigner, bindingId: string) =>
      readBinding(request, domain, signer, bindingId),
    /**
     * Polls a binding batch until `until` (default: settled); throws
     * DnWaitError when it settles otherwise or expires unsigned.
     */
    waitForBinding: <
      U extends BindingBatchStatus = 'bound' | 'partial_success' | 'failed',
    >(
      signer: WalletSigner,
      bindingId: string,
      w?: BindingWaitOptions<U>,
    ) => waitForBinding(request, domain, signer, bindingId, w),
  }
}

export type DnClient = ReturnType<typeof createDnClient>
