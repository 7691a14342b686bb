import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { composeWorkerDeps, deriveKey } from '@dn/cli'
import {
  type BindingConfig,
  createAesGcmSecrets,
  runWorkerRound,
  type Secrets,
  type SignRequest,
  type Store,
  type VenueId,
  type WorkerDeps,
} from '@dn/core'
import {
  createSimBinders,
  createSimVenues,
  type SimBinder,
  type SimVenues,
} from '@dn/venues/sim'
import Database from 'better-sqlite3'
import pg from 'pg'
import type { PrivateKeyAccount } from 'viem/accounts'
import { expect } from 'vitest'
import {
  call,
  type Dialect,
  startTestService,
  type TestService,
  testClock,
} from './testService.js'
import { newNonce, signWalletMessage } from './wallet.js'

const MASTER = Buffer.alloc(32, 7)
export const PREPARE = '/v1/venue-bindings/prepare'
export const BUILDER = '0x00000000000000000000000000000000000b0b0b'
export const FEE_CONFIG: BindingConfig = {
  feeApproval: true,
  builderAddress: BUILDER,
  builderName: 'dn-builder',
  lighterTestnet: false,
}

export type CallResult = Awaited<ReturnType<typeof call>>
type Target = {
  venue: VenueId
  accountIndex?: number
  signatureChainId?: number
  rebind?: boolean
}

export interface BindingBed {
  readonly svc: TestService
  readonly venues: SimVenues
  readonly clock: ReturnType<typeof testClock>
  readonly worker: WorkerDeps
  readonly binders: Record<VenueId, SimBinder>
  readonly secrets: Secrets
  readonly config: BindingConfig
  /** the bed clock in Unix seconds (wallet authorizations use it) */
  nowSec(): number
  /** Runs worker rounds until nothing is due (bounded). */
  drain(maxRounds?: number): Promise<number>
  close(): Promise<void>
}

/**
 * API with venue binding + in-process worker rounds + simulated venues on
 * one moveable clock that starts at the real time. API and worker share the
 * sim binders (the sim venues remember authorizations in memory).
 */
export async function startBindingBed(o: {
  dialect: Dialect
  config?: BindingConfig
  /** the API's batch reads and writes take this long (widens races) */
  slowBatchStoreMs?: number
}): Promise<BindingBed> {
  const clock = testClock()
  const config = o.config ?? FEE_CONFIG
  const venues = createSimVenues({ seed: 11, clock })
  const binders = createSimBinders(venues, config, clock) as Record<
    VenueId,
    SimBinder
  >
  const secrets = createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials'))
  const svc = await startTestService({
    dialect: o.dialect,
    clock,
    markets: venues.marketData,
    rateLimit: 100_000,
    binding: { binders, secrets, config },
    ...(o.slowBatchStoreMs ? { wrap: slowBatchStore(o.slowBatchStoreMs) } : {}),
  })
  const worker = composeWorkerDeps({
    store: svc.store,
    adapters: venues.adapters,
    masterKey: MASTER,
    clock,
    workerId: 'binding-test-worker',
    leaseMs: 30_000,
    logger: { info: () => {}, error: () => {} },
    binders,
  })
  const at = new Date(clock.now()).toISOString()
  await svc.store.workers.heartbeat({
    id: worker.workerId,
    startedAt: at,
    heartbeatAt: at,
    fencedAt: null,
  })
  return {
    svc,
    venues,
    clock,
    worker,
    binders,
    secrets,
    config,
    nowSec: () => Math.floor(clock.now() / 1000),
    async drain(maxRounds = 20) {
      let total = 0
      for (let i = 0; i < maxRounds; i++) {
        const did = await runWorkerRound(worker)
        total += did
        if (did === 0) return total
      }
      return total
    },
    close: () => svc.close(),
  }
}

/** The API's store, with batch reads and writes delayed by `ms`. */
function slowBatchStore(ms: number): (store: Store) => Store {
  return (store) =>
    new Proxy(store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver)
        if (prop !== 'bindingBatches') return value
        const repo = value as Store['bindingBatches']
        const pause = () => new Promise((r) => setTimeout(r, ms))
        return {
          ...repo,
          get: (id) => pause().then(() => repo.get(id)),
          update: (id, patch, guard) =>
            pause().then(() => repo.update(id, patch, guard)),
        } satisfies Store['bindingBatches']
      },
    })
}

/** Faucets `owner` on every sim venue; targets for all four venues. */
export function allTargets(bed: BindingBed, owner: string): Target[] {
  const idx = (v: VenueId) => bed.venues.faucet(v, owner).accountIndex
  bed.venues.faucet('hl', owner)
  bed.venues.faucet('aster', owner)
  return [
    { venue: 'hl' },
    { venue: 'aster' },
    { venue: 'lighter', accountIndex: idx('lighter') },
    { venue: 'lighter-mainnet', accountIndex: idx('lighter-mainnet') },
  ]
}

interface PrepareOptions {
  nonce?: string
  expiresAt?: number
  /** the owner field sent (default: the wallet, lowercased) */
  owner?: string
  /** who signs (default: the wallet) */
  signer?: PrivateKeyAccount
  /** the venues signed, when they differ from the ones sent */
  signedVenues?: unknown[]
  /** replaces the whole body (after signing) */
  mutate?: (body: Record<string, unknown>) => unknown
}

/** A signed PrepareVenueBindings body, as a client builds it. */
export async function prepareBody(
  bed: BindingBed,
  wallet: PrivateKeyAccount,
  venues: unknown[],
  o: PrepareOptions = {},
): Promise<Record<string, unknown>> {
  const owner = wallet.address.toLowerCase()
  const nonce = o.nonce ?? newNonce()
  const expiresAt = o.expiresAt ?? bed.nowSec() + 120
  const signature = await signWalletMessage(o.signer ?? wallet, 'prepare', {
    owner,
    venues: o.signedVenues ?? venues,
    nonce,
    expiresAt,
  })
  return {
    owner: o.owner ?? owner,
    venues,
    authorization: { nonce, expiresAt, signature },
  }
}

export async function prepare(
  bed: BindingBed,
  wallet: PrivateKeyAccount,
  venues: unknown[],
  o: PrepareOptions = {},
): Promise<CallResult & { sent: Record<string, unknown> }> {
  const sent = await prepareBody(bed, wallet, venues, o)
  const body = o.mutate ? o.mutate(sent) : sent
  const res = await call(bed.svc, 'POST', PREPARE, { body, idem: null })
  return { ...res, sent }
}

/** Prepare that must succeed; returns the batch. */
export async function prepared(
  bed: BindingBed,
  wallet: PrivateKeyAccount,
  venues: unknown[],
  o: PrepareOptions = {},
): Promise<any> {
  const res = await prepare(bed, wallet, venues, o)
  expect(res.status, res.text).toBe(200)
  return res.body
}

/** Signs one request exactly as returned. */
export function signRequest(
  wallet: PrivateKeyAccount,
  r: SignRequest,
): Promise<`0x${string}`> {
  if (r.method === 'personal_sign') {
    return wallet.signMessage({ message: r.payload.message })
  }
  return wallet.signTypedData(r.payload as any)
}

export async function signAll(
  wallet: PrivateKeyAccount,
  requests: readonly SignRequest[],
): Promise<{ requestId: string; signature: string }[]> {
  const out = []
  for (const r of requests) {
    out.push({
      requestId: r.requestId,
      signature: await signRequest(wallet, r),
    })
  }
  return out
}

export function submit(
  bed: BindingBed,
  bindingId: string,
  signatures: unknown,
  idem: string | null = randomUUID(),
): Promise<CallResult> {
  return call(bed.svc, 'POST', `/v1/venue-bindings/${bindingId}/submit`, {
    body: { signatures },
    idem,
  })
}

/** The three wallet headers of a read. */
export async function readHeaders(
  bed: BindingBed,
  wallet: PrivateKeyAccount,
  bindingId: string,
  o: { expiresAt?: number; address?: string; signer?: PrivateKeyAccount } = {},
): Promise<Record<string, string>> {
  const owner = wallet.address.toLowerCase()
  const expiresAt = o.expiresAt ?? bed.nowSec() + 120
  const signature = await signWalletMessage(o.signer ?? wallet, 'read', {
    owner,
    bindingId,
    expiresAt,
  })
  return {
    'x-wallet-address': o.address ?? owner,
    'x-wallet-expires-at': String(expiresAt),
    'x-wallet-signature': signature,
  }
}

export async function read(
  bed: BindingBed,
  wallet: PrivateKeyAccount,
  bindingId: string,
  o: Parameters<typeof readHeaders>[3] = {},
): Promise<CallResult> {
  return call(bed.svc, 'GET', `/v1/venue-bindings/${bindingId}`, {
    headers: await readHeaders(bed, wallet, bindingId, o),
  })
}

/** A binding error: the status, the code and a body of exactly {code, error}. */
export function expectBindingError(
  res: CallResult,
  status: number,
  code: string,
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status,
    body: { code, error: expect.any(String) },
  })
  expect(res.body.error.length).toBeGreaterThan(0)
}

/** Per-venue statuses of a batch, by venue. */
export function statuses(batch: any): Record<string, string> {
  return Object.fromEntries(
    batch.results.map((r: { venue: string; status: string }) => [
      r.venue,
      r.status,
    ]),
  )
}

export const requestIds = (batch: any): string[] =>
  batch.signRequests.map((r: SignRequest) => r.requestId).sort()

/** Everything the database holds, as text (raw SQLite pages + WAL + rows). */
export async function databaseText(bed: BindingBed): Promise<string> {
  const { dbFile, pgSchema } = bed.svc
  if (dbFile) {
    const parts: string[] = []
    for (const f of [dbFile, `${dbFile}-wal`]) {
      if (existsSync(f)) parts.push(readFileSync(f).toString('latin1'))
    }
    const db = new Database(dbFile, { readonly: true })
    try {
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all() as { name: string }[]
      for (const { name } of tables) {
        parts.push(JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all()))
      }
    } finally {
      db.close()
    }
    return parts.join('\n')
  }
  const client = new pg.Client({ connectionString: process.env.DN_TEST_PG_URL })
  await client.connect()
  try {
    const tables = await client.query(
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
      [pgSchema],
    )
    expect(tables.rows.length).toBeGreaterThan(0)
    const parts: string[] = []
    for (const { table_name } of tables.rows) {
      const rows = await client.query(
        `SELECT t::text AS row FROM "${pgSchema}"."${table_name}" t`,
      )
      for (const r of rows.rows) parts.push(r.row)
    }
    return parts.join('\n')
  } finally {
    await client.end()
  }
}
