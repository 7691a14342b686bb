import { bindVenues, readBinding } from './bindVenues.js'
import { DnApiError, DnTimeoutError } from './errors.js'
import { createTransport, type TransportOptions } from './transport.js'
import type {
  ApiKey,
  BalanceList,
  BindingTarget,
  CreatePerpOrder,
  CreateTask,
  ListQuery,
  MarketList,
  PerpOrder,
  PositionList,
  RequestLog,
  ResizeTask,
  ResolvePerpOrder,
  Task,
  Venue,
} from './types.js'
import {
  type MessageSigner,
  newNonce,
  signWalletAction,
  type WalletSigner,
} from './walletAuth.js'

export interface DnClientOptions extends TransportOptions {
  /** BINDING_AUTH_DOMAIN of the service @default 'dn' */
  readonly authDomain?: string
}

export interface WaitOptions {
  /** @default 500 */
  readonly intervalMs?: number
  /** @default 120_000 */
  readonly timeoutMs?: number
  /** called on every poll, e.g. to update a status line */
  readonly onPoll?: (status: string) => void
}

const TASK_DONE = ['running', 'closed', 'cancelled', 'failed']
const ORDER_DONE = [
  'open',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'unknown',
]

/** Typed client for every route; commands are retried safely. */
export function createDnClient(o: DnClientOptions) {
  const request = createTransport(o)
  const domain = o.authDomain ?? 'dn'
  const expiry = () => Math.floor(Date.now() / 1000) + 120

  async function waitFor<T>(
    read: () => Promise<T>,
    status: (t: T) => string,
    until: readonly string[],
    w: WaitOptions,
  ): Promise<T> {
    const deadline = Date.now() + (w.timeoutMs ?? 120_000)
    for (;;) {
      const t = await read()
      w.onPoll?.(status(t))
      if (until.includes(status(t))) return t
      if (Date.now() > deadline)
        throw new DnTimeoutError(
          `still ${status(t)} after ${w.timeoutMs ?? 120_000} ms`,
        )
      await new Promise((r) => setTimeout(r, w.intervalMs ?? 500))
    }
  }

  const client = {
    health: () => request<{ ok: true }>('GET', '/health'),
    /** The service's OpenAPI 3.1.1 contract. */
    openApiDocument: () =>
      request<Record<string, unknown>>('GET', '/openapi.json'),
    listTasks: (q: ListQuery = {}) =>
      request<{ tasks: Task[]; nextCursor: string | null }>(
        'GET',
        '/v1/delta-neutral/tasks',
        { query: { ...q } },
      ),
    createTask: (body: CreateTask, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'pending' }>(
        'POST',
        '/v1/delta-neutral/tasks',
        { body, idempotencyKey },
      ),
    getTask: (taskId: string) =>
      request<{ task: Task }>('GET', `/v1/delta-neutral/tasks/${taskId}`).then(
        (r) => r.task,
      ),
    cancelTask: (taskId: string, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'cancelled' }>(
        'POST',
        `/v1/delta-neutral/tasks/${taskId}/cancel`,
        { idempotencyKey },
      ),
    closeTask: (taskId: string, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'close_queued' }>(
        'POST',
        `/v1/delta-neutral/tasks/${taskId}/close`,
        { idempotencyKey },
      ),
    resizeTask: (taskId: string, body: ResizeTask, idempotencyKey?: string) =>
      request<{ taskId: string; status: 'resizing' }>(
        'POST',
        `/v1/delta-neutral/tasks/${taskId}/resize`,
        { body, idempotencyKey },
      ),
    listOrders: (q: ListQuery = {}) =>
      request<{ orders: PerpOrder[]; nextCursor: string | null }>(
        'GET',
        '/v1/perp/orders',
        { query: { ...q } },
      ),
    createOrder: (body: CreatePerpOrder, idempotencyKey?: string) =>
      request<{ orderId: string; status: 'pending' }>(
        'POST',
        '/v1/perp/orders',
        { body, idempotencyKey },
      ),
    getOrder: (orderId: string) =>
      request<{ order: PerpOrder }>('GET', `/v1/perp/orders/${orderId}`).then(
        (r) => r.order,
      ),
    cancelOrder: (orderId: string, idempotencyKey?: string) =>
      request<{ orderId: string; status: 'cancelled' | 'cancel_queued' }>(
        'POST',
        `/v1/perp/orders/${orderId}/cancel`,
        { idempotencyKey },
      ),
    resolveOrder: (
      orderId: string,
      body: ResolvePerpOrder,
      idempotencyKey?: string,
    ) =>
      request<{
        orderId: string
        status: string
        resolution: Record<string, unknown>
      }>('POST', `/v1/perp/orders/${orderId}/resolve`, {
        body,
        idempotencyKey,
      }),
    /** A granted venue's listed markets: rules and current quote. */
    markets: (q: { venue: Venue }) =>
      request<MarketList>('GET', '/v1/markets', { query: { venue: q.venue } }),
    /** Positions of the owner's bound accounts (one venue, or all granted), as last read. */
    positions: (q: { venue?: Venue | undefined } = {}) =>
      request<PositionList>('GET', '/v1/positions', {
        query: { venue: q.venue },
      }),
    /** Collateral of the owner's bound accounts (one venue, or all granted), as last read. */
    balances: (q: { venue?: Venue | undefined } = {}) =>
      request<BalanceList>('GET', '/v1/balances', {
        query: { venue: q.venue },
      }),
    strategyRequests: () =>
      request<{ requests: RequestLog[] }>('GET', '/v1/requests').then(
        (r) => r.requests,
      ),
    perpRequests: () =>
      request<{ requests: RequestLog[] }>('GET', '/v1/perp/requests').then(
        (r) => r.requests,
      ),
    /** Polls until the task leaves pending/closing states (or `until`). */
    waitForTask: (taskId: string, w: WaitOptions & { until?: string[] } = {}) =>
      waitFor(
        () => client.getTask(taskId),
        (t) => t.status,
        w.until ?? TASK_DONE,
        w,
      ),
    waitForOrder: (
      orderId: string,
      w: WaitOptions & { until?: string[] } = {},
    ) =>
      waitFor(
        () => client.getOrder(orderId),
        (t) => t.status,
        w.until ?? ORDER_DONE,
        w,
      ),

    /** Creates an API key signed by the wallet; the secret is in `apiKey`. */
    async createApiKey(
      signer: MessageSigner,
      p: { venues: Venue[]; maxSizeUsd: number; label?: string },
    ): Promise<ApiKey & { apiKey: string }> {
      const owner = signer.address.toLowerCase()
      const nonce = newNonce()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'create_api_key',
        {
          owner,
          venues: p.venues,
          maxSizeUsd: p.maxSizeUsd,
          label: p.label ?? null,
          nonce,
          expiresAt,
        },
      )
      return request('POST', '/v1/api-keys', {
        body: { owner, ...p, authorization: { nonce, expiresAt, signature } },
      })
    },
    /** Binds venues for the wallet; resolves when every venue settled. */
    bindVenues: (
      signer: WalletSigner,
      targets: readonly BindingTarget[],
      opts?: Parameters<typeof bindVenues>[4],
    ) => bindVenues(request, domain, signer, targets, opts),
    readBinding: (signer: WalletSigner, bindingId: string) =>
      readBinding(request, domain, signer, bindingId),
    async listApiKeys(signer: MessageSigner): Promise<ApiKey[]> {
      const owner = signer.address.toLowerCase()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'list_api_keys',
        { owner, expiresAt },
      )
      const r = await request<{ keys: ApiKey[] }>('GET', '/v1/api-keys', {
        headers: {
          'x-wallet-address': owner,
          'x-wallet-expires-at': String(expiresAt),
          'x-wallet-signature': signature,
        },
      })
      return r.keys
    },
    async revokeApiKey(signer: MessageSigner, keyId: string): Promise<ApiKey> {
      const owner = signer.address.toLowerCase()
      const nonce = newNonce()
      const expiresAt = expiry()
      const signature = await signWalletAction(
        signer,
        domain,
        'revoke_api_key',
        { owner, keyId, nonce, expiresAt },
      )
      return request('POST', `/v1/api-keys/${keyId}/revoke`, {
        body: { owner, authorization: { nonce, expiresAt, signature } },
      })
    },
  }
  return client
}

export type DnClient = ReturnType<typeof createDnClient>
{
  DnApiError
}
