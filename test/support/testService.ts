import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { composeServerDeps } from '@dn/cli'
import type {
  Clock,
  MarketData,
  Store,
  VenueId,
  VenueOrderLookup,
} from '@dn/core'
import { createPostgresStore } from '@dn/core/postgres'
import { createSqliteStore } from '@dn/core/sqlite'
import {
  type DnMetrics,
  type Logger,
  type RunningServer,
  type ServerDeps,
  silentLogger,
  startHttpServer,
} from '@dn/server'
import { createSimMarketData } from '@dn/venues/sim'
import pg from 'pg'
import type { PrivateKeyAccount } from 'viem/accounts'
import { newNonce, newWallet, signWalletMessage } from './wallet.js'

const PgClient = pg.Client

export type Dialect = 'sqlite' | 'postgres'

/** Dialects to run a suite on: SQLite always, PostgreSQL when configured. */
export function dialects(): Dialect[] {
  return process.env.DN_TEST_PG_URL ? ['sqlite', 'postgres'] : ['sqlite']
}

interface TestStore {
  readonly store: Store
  /** the SQLite file (sqlite dialect only) */
  readonly file?: string
  /** the PostgreSQL schema of this store alone (postgres dialect only) */
  readonly pgSchema?: string
  cleanup(): Promise<void>
}

/**
 * A fresh store: a temp SQLite file, or a PostgreSQL schema of its own so
 * tables (workers included) are never shared between test files.
 */
async function openTestStore(dialect: Dialect): Promise<TestStore> {
  if (dialect === 'postgres') {
    const connectionString = process.env.DN_TEST_PG_URL
    if (!connectionString) throw new Error('DN_TEST_PG_URL is not set')
    const schema = `dn_t_${randomBytes(6).toString('hex')}`
    return {
      store: await createPostgresStore({ connectionString, schema }),
      pgSchema: schema,
      async cleanup() {
        const pg = new PgClient({ connectionString })
        await pg.connect()
        await pg
          .query(`DROP SCHEMA "${schema}" CASCADE`)
          .finally(() => pg.end())
      },
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'dn-test-'))
  const file = join(dir, 'dn.sqlite')
  return {
    file,
    store: await createSqliteStore({ filename: file }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
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
  readonly markets: MarketData
  readonly masterKey: Buffer
  /** the SQLite file, when the dialect is sqlite */
  readonly dbFile: string | undefined
  /** the PostgreSQL schema, when the dialect is postgres */
  readonly pgSchema: string | undefined
  close(): Promise<void>
}

export interface TestServiceOptions {
  readonly dialect?: Dialect
  readonly clock?: Clock
  readonly workerResize?: boolean
  readonly rateLimit?: number
  readonly venueOrders?: VenueOrderLookup
  readonly logger?: Logger
  /** the process's metrics, served on /metrics @default none (404) */
  readonly metrics?: DnMetrics
  /** market data the API checks commands against (default: sim markets) */
  readonly markets?: MarketData
  /** venue binding (binders, secrets, config); routes answer 503 without */
  readonly binding?: ServerDeps['binding']
  /** wraps the store the server sees (the service keeps the real one) */
  readonly wrap?: (store: Store) => Store
}

/** Server + store on loopback, port 0; close it in afterAll. */
export async function startTestService(
  o: TestServiceOptions = {},
): Promise<TestService> {
  const { store, cleanup, file, pgSchema } = await openTestStore(
    o.dialect ?? 'sqlite',
  )
  const markets = o.markets ?? createSimMarketData()
  const masterKey = Buffer.alloc(32, 7)
  const deps = composeServerDeps({
    store: o.wrap ? o.wrap(store) : store,
    markets,
    masterKey,
    env: 'test',
    logger: o.logger ?? silentLogger,
    ...(o.metrics ? { metrics: o.metrics } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
    ...(o.workerResize === undefined ? {} : { workerResize: o.workerResize }),
    ...(o.rateLimit === undefined ? {} : { rateLimit: o.rateLimit }),
    ...(o.venueOrders ? { venueOrders: o.venueOrders } : {}),
  })
  if (o.binding) Object.assign(deps, { binding: o.binding })
  const server: RunningServer = await startHttpServer(deps, { port: 0 })
  return {
    url: server.url,
    store,
    deps,
    markets,
    masterKey,
    dbFile: file,
    pgSchema,
    async close() {
      await server.close()
      await store.close()
      await cleanup()
    },
  }
}

/**
 * A second server on `svc`'s database with a store of its own, as another
 * `dn serve` process would have it. Close it before `svc`.
 */
export async function startPeerService(
  svc: TestService,
): Promise<{ url: string; store: Store; close(): Promise<void> }> {
  const store =
    svc.dbFile !== undefined
      ? await createSqliteStore({ filename: svc.dbFile })
      : await createPostgresStore({
          connectionString: process.env.DN_TEST_PG_URL as string,
          schema: svc.pgSchema,
        })
  const deps = composeServerDeps({
    store,
    markets: svc.markets,
    masterKey: svc.masterKey,
    env: 'test',
    logger: silentLogger,
  })
  const server = await startHttpServer(deps, { port: 0 })
  return {
    url: server.url,
    store,
    async close() {
      await server.close()
      await store.close()
    },
  }
}

/** Marks venues bound for an owner, as the binding worker would. */
export async function bindVenues(
  store: Store,
  owner: string,
  venues: readonly VenueId[],
  accountIndex: Partial<Record<VenueId, string>> = {},
): Promise<void> {
  const now = new Date().toISOString()
  for (const venue of venues) {
    await store.bindings.upsert({
      id: randomUUID(),
      owner: owner.toLowerCase(),
      venue,
      status: 'bound',
      accountIndex:
        accountIndex[venue] ?? (venue.startsWith('lighter') ? '1' : null),
      credentialRef: null,
      credentialCiphertext: null,
      unusableCode: null,
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
  // a service dn up runs in another process has no deps here
  svc: Pick<TestService, 'store' | 'url'> & Partial<Pick<TestService, 'deps'>>,
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
  // by the service's clock: a test's clock may have moved far from ours
  const expiresAt =
    Math.floor((svc.deps?.clock.now() ?? Date.now()) / 1000) + 120
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
