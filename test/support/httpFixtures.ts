import { randomUUID } from 'node:crypto'
import type { Repos, Store, VenueId } from '@dn/core'
import { createLogger } from '@dn/server'
import pg from 'pg'
import type { PrivateKeyAccount } from 'viem/accounts'
import { expect } from 'vitest'
import {
  call,
  type Dialect,
  startTestService,
  type TestService,
  type TestServiceOptions,
} from './testService.js'
import { newNonce, signWalletMessage } from './wallet.js'

const _PgClient = pg.Client

export const UUID_RE =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
export const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
export const TASKS = '/v1/delta-neutral/tasks'
export const ORDERS = '/v1/perp/orders'

export type CallResult = Awaited<ReturnType<typeof call>>

/** Status and `code` together, so a failure shows both. */
export function expectError(
  res: CallResult,
  status: number,
  code: string,
): void {
  expect({ status: res.status, code: res.body?.code }).toEqual({
    status,
    code,
  })
  expect(typeof res.body.error).toBe('string')
}

/**
 * Awaits a response and asserts `'<status> <code>'`, e.g.
 * `await fails(post(path, body), '409 task_not_running')`.
 */
export async function fails(
  res: Promise<CallResult>,
  expected: string,
): Promise<CallResult> {
  const r = await res
  const [status, code] = expected.split(' ')
  expectError(r, Number(status), code as string)
  return r
}

interface PostOptions {
  idem?: string | null
  headers?: Record<string, string>
  rawBody?: string
}

/** GET/POST helpers bound to a service that is looked up at call time. */
export function client(svc: () => { url: string }) {
  const get = (path: string, key?: string) =>
    call(svc(), 'GET', path, key ? { key } : {})
  const post = (
    path: string,
    key?: string,
    body?: unknown,
    o: PostOptions = {},
  ) =>
    call(svc(), 'POST', path, {
      ...(key ? { key } : {}),
      ...(body === undefined ? {} : { body }),
      ...o,
    })
  return {
    get,
    post,
    /** the same helpers with one API key */
    as: (key: string) => ({
      get: (path: string) => get(path, key),
      post: (path: string, body?: unknown, o?: PostOptions) =>
        post(path, key, body, o),
    }),
  }
}

/** `{name: null}` for each name: the nullable fields of a fresh resource. */
export function nulls(...names: string[]): Record<string, null> {
  return Object.fromEntries(names.map((n) => [n, null]))
}

/** A valid CreateTask body: hl BTC long, lighter BTC short, USD 100. */
export function taskBody(over: Record<string, unknown> = {}) {
  return {
    longVenue: 'hl',
    shortVenue: 'lighter',
    longMarket: 'BTC',
    shortMarket: 'BTC',
    sizeUsd: 100,
    ...over,
  }
}

/** A valid market order: 0.001 hl BTC long (USD 100 at mark 100000). */
export function marketOrder(over: Record<string, unknown> = {}) {
  return {
    venue: 'hl',
    market: 'BTC',
    side: 'long',
    orderType: 'market',
    sizeBase: 0.001,
    ...over,
  }
}

/** A valid limit order: 0.002 aster BTCUSDT short at 100000.5. */
export function limitOrder(over: Record<string, unknown> = {}) {
  return {
    venue: 'aster',
    market: 'BTCUSDT',
    side: 'short',
    orderType: 'limit',
    sizeBase: 0.002,
    limitPrice: 100000.5,
    ...over,
  }
}

export const nowIso = (): string => new Date().toISOString()

/** Creates a task over HTTP and returns its id (asserting 202). */
export async function createTaskVia(
  svc: { url: string },
  key: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await call(svc, 'POST', TASKS, { key, body: taskBody(over) })
  expect(res.status, res.text).toBe(202)
  return res.body.taskId
}

/** Creates a perp order over HTTP and returns its id (asserting 202). */
export async function createOrderVia(
  svc: { url: string },
  key: string,
  body: Record<string, unknown> = marketOrder(),
): Promise<string> {
  const res = await call(svc, 'POST', ORDERS, { key, body })
  expect(res.status, res.text).toBe(202)
  return res.body.orderId
}

/** Signs and sends `POST /v1/api-keys`; returns the raw result. */
export async function createKeyRaw(
  svc: { url: string },
  wallet: PrivateKeyAccount,
  o: {
    venues?: VenueId[]
    maxSizeUsd?: number
    label?: string
    nonce?: string
    expiresAt?: number
    signer?: PrivateKeyAccount
  } = {},
): Promise<CallResult> {
  const owner = wallet.address.toLowerCase()
  const venues = o.venues ?? ['hl', 'aster']
  const maxSizeUsd = o.maxSizeUsd ?? 1000
  const nonce = o.nonce ?? newNonce()
  const expiresAt = o.expiresAt ?? Math.floor(Date.now() / 1000) + 120
  const signature = await signWalletMessage(
    o.signer ?? wallet,
    'create_api_key',
    { owner, venues, maxSizeUsd, label: o.label ?? null, nonce, expiresAt },
  )
  return call(svc, 'POST', '/v1/api-keys', {
    body: {
      owner,
      venues,
      maxSizeUsd,
      ...(o.label === undefined ? {} : { label: o.label }),
      authorization: { nonce, expiresAt, signature },
    },
  })
}

/** Signs and sends `GET /v1/api-keys`. */
export async function listKeysRaw(
  svc: { url: string },
  wallet: PrivateKeyAccount,
  o: { expiresAt?: number; signer?: PrivateKeyAccount } = {},
): Promise<CallResult> {
  const owner = wallet.address.toLowerCase()
  const expiresAt = o.expiresAt ?? Math.floor(Date.now() / 1000) + 120
  const signature = await signWalletMessage(
    o.signer ?? wallet,
    'list_api_keys',
    {
      owner,
      expiresAt,
    },
  )
  return call(svc, 'GET', '/v1/api-keys', {
    headers: {
      'x-wallet-address': owner,
      'x-wallet-expires-at': String(expiresAt),
      'x-wallet-signature': signature,
    },
  })
}

/** Signs and sends `POST /v1/api-keys/{keyId}/revoke`. */
export async function revokeKeyRaw(
  svc: { url: string },
  wallet: PrivateKeyAccount,
  keyId: string,
  o: { nonce?: string; expiresAt?: number } = {},
): Promise<CallResult> {
  const owner = wallet.address.toLowerCase()
  const nonce = o.nonce ?? newNonce()
  const expiresAt = o.expiresAt ?? Math.floor(Date.now() / 1000) + 120
  const signature = await signWalletMessage(wallet, 'revoke_api_key', {
    owner,
    keyId,
    nonce,
    expiresAt,
  })
  return call(svc, 'POST', `/v1/api-keys/${keyId}/revoke`, {
    body: { owner, authorization: { nonce, expiresAt, signature } },
  })
}

/** Every key-authenticated route, with a body that passes validation. */
export function keyRoutes(): {
  method: 'GET' | 'POST'
  path: string
  family: 'strategy' | 'perp'
  body?: unknown
}[] {
  const id = randomUUID()
  const resolve = {
    status: 'cancelled',
    filledBase: 0,
    averagePrice: null,
    evidence: 'operator checked the venue',
    confirmNoOpenOrder: true,
    confirmWorkersStopped: true,
  }
  return [
    { method: 'GET', path: TASKS, family: 'strategy' },
    { method: 'POST', path: TASKS, family: 'strategy', body: taskBody() },
    { method: 'GET', path: `${TASKS}/${id}`, family: 'strategy' },
    {
      method: 'POST',
      path: `${TASKS}/${id}/cancel`,
      family: 'strategy',
      body: {},
    },
    {
      method: 'POST',
      path: `${TASKS}/${id}/close`,
      family: 'strategy',
      body: {},
    },
    {
      method: 'POST',
      path: `${TASKS}/${id}/resize`,
      family: 'strategy',
      body: { longTargetBase: 0.001 },
    },
    { method: 'GET', path: '/v1/requests', family: 'strategy' },
    { method: 'GET', path: ORDERS, family: 'perp' },
    { method: 'POST', path: ORDERS, family: 'perp', body: marketOrder() },
    { method: 'GET', path: `${ORDERS}/${id}`, family: 'perp' },
    {
      method: 'POST',
      path: `${ORDERS}/${id}/cancel`,
      family: 'perp',
      body: {},
    },
    {
      method: 'POST',
      path: `${ORDERS}/${id}/resolve`,
      family: 'perp',
      body: resolve,
    },
    { method: 'GET', path: '/v1/perp/requests', family: 'perp' },
  ]
}

/** A store whose named repositories can be switched to failing. */
export function flakyStore(real: Store): {
  store: Store
  /** repositories, or `revocationMark` (the store's call) */
  fail(names: readonly (keyof Repos | 'revocationMark')[]): void
  heal(): void
} {
  const failing = new Set<string>()
  const wrapRepos = <T extends object>(repos: T): T =>
    new Proxy(repos, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver)
        if (typeof prop !== 'string' || !failing.has(prop)) return value
        if (typeof value === 'function') {
          return () => Promise.reject(new Error(`simulated outage of ${prop}`))
        }
        return new Proxy(value as object, {
          get(_repo, method) {
            return () =>
              Promise.reject(
                new Error(`simulated outage of ${prop}.${String(method)}`),
              )
          },
        })
      },
    })
  const store = wrapRepos(real)
  // a transaction's repositories fail as the store's do
  const tx: Store['transaction'] = (fn) =>
    real.transaction((repos) => fn(wrapRepos(repos)))
  const sharedTx: Store['sharedTransaction'] = (fn) =>
    real.sharedTransaction((repos) => fn(wrapRepos(repos)))
  return {
    store: new Proxy(store, {
      get: (target, prop, receiver) =>
        prop === 'transaction'
          ? tx
          : prop === 'sharedTransaction'
            ? sharedTx
            : Reflect.get(target, prop, receiver),
    }),
    fail: (names) => {
      for (const n of names) failing.add(n)
    },
    heal: () => failing.clear(),
  }
}

export interface CustomService extends TestService {
  /** JSON lines written by the service logger */
  readonly logs: string[]
}

/** startTestService with the logger captured into `logs`. */
export async function startCustomService(
  o: Omit<TestServiceOptions, 'logger'> & { dialect: Dialect },
): Promise<CustomService> {
  const logs: string[] = []
  const svc = await startTestService({
    ...o,
    logger: createLogger({
      level: 'debug',
      destination: { write: (line: string) => logs.push(line) },
    }),
  })
  return { ...svc, logs }
}
