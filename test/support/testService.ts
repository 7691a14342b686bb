import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { composeServerDeps } from '@dn/cli'
import type { Clock, Store, VenueId, VenueOrderLookup } from '@dn/core'
import { createPostgresStore } from '@dn/core/postgres'
import { createSqliteStore } from '@dn/core/sqlite'
import {
  type RunningServer,
  type ServerDeps,
  silentLogger,
  startHttpServer,
} from '@dn/server'
import { createSimMarketData } from '@dn/venues'
import type { PrivateKeyAccount } from 'viem/accounts'
import { newNonce, newWallet, signWalletMessage } from './wallet.js'

export type Dialect = 'sqlite' | 'postgres'

/** Dialects to run a suite on: SQLite always, PostgreSQL when configured. */
export function dialects(): Dialect[] {
  return process.env.DN_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite']
}

export async function openTestStore(
  dialect: Dialect,
): Promise<{ store: Store; cleanup(): void }> {
  if (dialect === 'postgres') {
    const url = process.env.DN_TEST_PG_URL
    if (!url) throw new Error('DN_TEST_PG_URL is not set')
    return {
      store: await createPostgresStore({ connectionString: url }),
      cleanup: () => {},
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dn-test-'))
  return {
    store: await createSqliteStore({ filename: join(dir, 'dn.sqlite') }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/** A clock tests can move. */
export function testClock(
  start = Date.now(),
): Clock & { advance(ms: number): void } {
  let now = start
  return {
    now: () => now,
    advance: (ms) => {
      now += ms
    },
  }
}

export interface TestService {
  readonly url: string
  readonly store: Store
  readonly deps: ServerDeps
  readonly markets: ReturnType<typeof createSimMarketData>
  readonly masterKey: Buffer
  close(): Promise<void>
}

export interface TestServiceOptions {
  readonly dialect?: Dialect
  readonly clock?: Clock
  readonly workerResize?: boolean
  readonly rateLimit?: number
  readonly venueOrders?: VenueOrderLookup
}

/** Server + store on loopback, port 0; close it in afterAll. */
export async function startTestService(
  o: TestServiceOptions = {},
): Promise<TestService> {
  const { store, cleanup } = await openTestStore(o.dialect ?? 'sqlite')
  const markets = createSimMarketData()
  const masterKey = Buffer.alloc(32, 7)
  const deps = composeServerDeps({
    store,
    markets,
    masterKey,
    env: 'test',
    logger: silentLogger,
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.workerResize === undefined ? {} : { workerResize: o.workerResize }),
    ...(o.rateLimit === undefined ? {} : { rateLimit: o.rateLimit }),
    ...(o.venueOrders ? { venueOrders: o.venueOrders } : {}),
  })
  const server: RunningServer = await startHttpServer(deps, { port: 0 })
  return {
    url: server.url,
    store,
    deps,
    markets,
    masterKey,
    async close() {
      await server.close()
      await store.close()
      cleanup()
    },
  }
}

/** Marks venues bound for an owner, as the binding worker would. */
export async function bindVenues(
  store: Store,
  owner: string,
  venues: readonly VenueId[],
): Promise<void> {
  const now = new Date().toISOString()
  for (const venue of venues) {
    await store.bindings.upsert({
      id: randomUUID(),
      owner: owner.toLowerCase(),
      venue,
      status: 'bound',
      accountIndex: venue.startsWith('lighter') ? '1' : null,
      credentialRef: null,
      credentialCiphertext: null,
      createdAt: now,
      updatedAt: now,
    })
  }
}

export interface TestOwner {
  readonly wallet: PrivateKeyAccount
  readonly owner: string
  readonly apiKey: string
  readonly keyId: string
}

/**
 * A wallet with bound venues and an API key created through the real
 * wallet-signed route.
 */
export async function createOwnerWithKey(
  svc: TestService,
  opts: {
    venues?: VenueId[]
    bound?: VenueId[]
    maxSizeUsd?: number
    wallet?: PrivateKeyAccount
  } = {},
): Promise<TestOwner> {
  const wallet = opts.wallet ?? newWallet()
  const owner = wallet.address.toLowerCase()
  const venues = opts.venues ?? ['hl', 'aster', 'lighter', 'lighter-mainnet']
  await bindVenues(svc.store, owner, opts.bound ?? venues)
  const expiresAt = Math.floor(Date.now() / 1000) + 120
  const nonce = newNonce()
  const maxSizeUsd = opts.maxSizeUsd ?? 100_000
  const signature = await signWalletMessage(wallet, 'create_api_key', {
    owner,
    venues,
    maxSizeUsd,
    label: null,
    nonce,
    expiresAt,
  })
  const res = await fetch(`${svc.url}/v1/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      owner,
      venues,
      maxSizeUsd,
      authorization: { nonce, expiresAt, signature },
    }),
  })
  const body = (await res.json()) as { apiKey: string; keyId: string }
  if (res.status !== 201)
    throw new Error(
      `key creation failed: ${res.status} ${JSON.stringify(body)}`,
    )
  return { wallet, owner, apiKey: body.apiKey, keyId: body.keyId }
}

/** Small fetch wrapper that returns status, headers and parsed JSON. */
export async function call(
  svc: { url: string },
  method: string,
  path: string,
  o: {
    key?: string
    body?: unknown
    rawBody?: string
    idem?: string | null
    headers?: Record<string, string>
  } = {},
): Promise<{ status: number; headers: Headers; body: any; text: string }> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.key) headers.authorization = `Bearer ${o.key}`
  if (o.body !== undefined || o.rawBody !== undefined)
    headers['content-type'] ??= 'application/json'
  if (method === 'POST' && o.idem !== null)
    headers['idempotency-key'] ??= o.idem ?? randomUUID()
  const res = await fetch(`${svc.url}${path}`, {
    method,
    headers,
    ...(o.rawBody !== undefined
      ? { body: o.rawBody }
      : o.body !== undefined
        ? { body: JSON.stringify(o.body) }
        : {}),
  })
  const text = await res.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, headers: res.headers, body, text }
}
