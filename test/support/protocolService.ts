import {
  type ComposedVenues,
  composeVenues,
  composeWorkerDeps,
  deriveKey,
} from '@dn/cli'
import { type BindingTarget, createDnClient, type DnClient } from '@dn/client'
import {
  type BindingConfig,
  createAdapterOrderLookup,
  createAesGcmSecrets,
  type RunningWorker,
  type Store,
  startWorker,
  type VenueAdapter,
  type VenueId,
  type WorkerOptions,
} from '@dn/core'
import type { DnMetrics } from '@dn/server'
import { createSimVenues, type SimVenues } from '@dn/venues/sim'
import type { PrivateKeyAccount } from 'viem/accounts'
import { expect } from 'vitest'
import {
  type Dialect,
  startTestService,
  type TestService,
} from './testService.js'

export interface ProtocolService {
  readonly sim: SimVenues
  readonly venues: ComposedVenues
  readonly svc: TestService
  readonly worker: RunningWorker
  /** binds `targets` for `wallet` through the binding routes, then a key */
  bindAndKey(
    wallet: PrivateKeyAccount,
    targets: readonly BindingTarget[],
  ): Promise<DnClient>
  close(): Promise<void>
}

/**
 * The service as `dn up` runs it, in-process: every venue on its real
 * protocol against its signature-checking fake over one simulator, the
 * HTTP API, and a worker loop, on the store of `dialect`.
 */
export async function startProtocolService(o: {
  readonly dialect: Dialect
  readonly seed: number
  readonly masterKey: Buffer
  readonly config: BindingConfig
  readonly workerId: string
  /** nonce counters of the protocol adapters (default: per process) */
  readonly counters?: (svc: () => TestService) => Pick<Store, 'counters'>
  /** where the worker logs @default nowhere */
  readonly logger?: {
    info(msg: string, fields?: object): void
    error(msg: string, fields?: object): void
  }
  /** the worker loop's options (idleMs 25 unless given) */
  readonly workerOptions?: WorkerOptions
  /** records every venue call of the composed venues @default none */
  readonly metrics?: DnMetrics
  /** the simulated venues settle funding this often @default hourly */
  readonly fundingIntervalMs?: number
  /** the worker trades through these instead (wire faults, spies) */
  readonly workerAdapters?: (
    venues: ComposedVenues,
  ) => Partial<Record<VenueId, VenueAdapter>>
}): Promise<ProtocolService> {
  const sim = createSimVenues({
    seed: o.seed,
    fundingIntervalMs: o.fundingIntervalMs,
  })
  let svc: TestService | undefined
  const current = () => svc as TestService
  const venues = await composeVenues(
    sim,
    {},
    {
      hlMainnet: true,
      asterTestnet: false,
      config: o.config,
      // these flows send faster than a standard Lighter account may (60
      // requests a minute): they run on the builder tier's limits
      lighterTier: 'builder',
      ...(o.counters ? { store: o.counters(current) } : {}),
      ...(o.metrics ? { metrics: o.metrics } : {}),
    },
  )
  const secrets = createAesGcmSecrets(
    deriveKey(o.masterKey, 'venue-credentials'),
  )
  svc = await startTestService({
    dialect: o.dialect,
    // clients poll every 25 ms: keep the 120/min budget out of the way
    rateLimit: 100_000,
    markets: venues.marketData,
    binding: { binders: venues.binders, secrets, config: o.config },
    venueOrders: {
      isLive: (order) =>
        createAdapterOrderLookup({
          repos: current().store,
          secrets,
          adapters: venues.adapters,
        }).isLive(order),
    },
  })
  const worker = startWorker(
    composeWorkerDeps({
      store: svc.store,
      adapters: { ...venues.adapters, ...o.workerAdapters?.(venues) },
      binders: venues.binders,
      masterKey: o.masterKey,
      workerId: o.workerId,
      logger: o.logger ?? { info: () => {}, error: () => {} },
    }),
    { idleMs: 25, ...o.workerOptions },
  )
  const url = svc.url
  return {
    sim,
    venues,
    svc,
    worker,
    async bindAndKey(wallet, targets) {
      const owner = wallet.address.toLowerCase()
      for (const t of targets) sim.faucet(t.venue, owner)
      const anon = createDnClient({ baseUrl: url })
      const batch = await anon.bindVenues(wallet, [...targets], {
        intervalMs: 25,
        timeoutMs: 30_000,
      })
      expect(batch.results.map((r) => `${r.venue}:${r.status}`)).toEqual(
        targets.map((t) => `${t.venue}:bound`),
      )
      const key = await anon.createApiKey(wallet, {
        venues: targets.map((t) => t.venue),
        maxSizeUsd: 20_000,
      })
      return createDnClient({ baseUrl: url, apiKey: key.apiKey })
    },
    async close() {
      await worker.stop()
      await current().close()
      await venues.close()
    },
  }
}
