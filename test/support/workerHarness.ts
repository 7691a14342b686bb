import { composeWorkerDeps, deriveKey } from '@dn/cli'
import {
  createAdapterOrderLookup,
  createAesGcmSecrets,
  runWorkerRound,
  shareAccountReads,
  VENUES,
  type VenueAdapter,
  type VenueId,
  type WorkerDeps,
} from '@dn/core'
import { createSimVenues, type SimVenues } from '@dn/venues/sim'
import { expect } from 'vitest'
import {
  bindVenues,
  call,
  createOwnerWithKey,
  type Dialect,
  startTestService,
  type TestOwner,
  type TestService,
  testClock,
} from './testService.js'
import { newWallet } from './wallet.js'

const MASTER = Buffer.alloc(32, 7)

export interface WorkerBed {
  readonly svc: TestService
  readonly venues: SimVenues
  readonly clock: ReturnType<typeof testClock>
  readonly worker: WorkerDeps
  /** Runs worker rounds until nothing is due (bounded). */
  drain(maxRounds?: number): Promise<number>
  /** Advances the clock, then drains. */
  advance(ms: number): Promise<void>
  /** An owner with an API key, bound venues and funded sim accounts. */
  owner(o?: { maxSizeUsd?: number; venues?: VenueId[] }): Promise<TestOwner>
  /**
   * Creates a paired task for `o` through the API: aster BTCUSDT long,
   * lighter BTC short, USD 2 000 a leg, unless `body` says otherwise.
   * @returns its id (the answer must be 202)
   */
  createTask(o: TestOwner, body?: Record<string, unknown>): Promise<string>
  /** The task as `GET /v1/delta-neutral/tasks/{id}` shows it to `o`. */
  getTask(o: TestOwner, id: string): Promise<Record<string, any>>
  /** `POST /v1/delta-neutral/tasks/{id}/{action}` as `o`. */
  taskAction(
    o: TestOwner,
    id: string,
    action: string,
    body?: unknown,
  ): ReturnType<typeof call>
  close(): Promise<void>
}

/**
 * API + in-process worker rounds + simulated venues, all on one moveable
 * clock, so a test decides exactly when time passes and work runs.
 */
export async function startWorkerBed(o: {
  dialect: Dialect
  seed?: number
  fundingGraceMs?: number
  /** how often running tasks are sampled @default 60_000 */
  taskSampleMs?: number
  /**
   * the worker trades these venues through these adapters instead of the
   * paper ones (a protocol adapter against its fake on the bed's clock)
   */
  workerAdapters?: (
    venues: SimVenues,
    clock: ReturnType<typeof testClock>,
  ) => Promise<Partial<Record<VenueId, VenueAdapter>>>
}): Promise<WorkerBed> {
  // starts at the real time: wallet signatures carry real expiry times
  const clock = testClock()
  const venues = createSimVenues({ seed: o.seed ?? 7, clock })
  const traded = {
    ...venues.adapters,
    ...(await o.workerAdapters?.(venues, clock)),
  }
  const secrets = createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials'))
  let svc: TestService
  const lookup = {
    isLive: (
      order: Parameters<
        ReturnType<typeof createAdapterOrderLookup>['isLive']
      >[0],
    ) =>
      createAdapterOrderLookup({
        repos: svc.store,
        secrets,
        adapters: venues.adapters,
      }).isLive(order),
  }
  svc = await startTestService({
    dialect: o.dialect,
    clock,
    markets: venues.marketData,
    venueOrders: lookup,
    rateLimit: 100_000,
  })
  const worker = composeWorkerDeps({
    store: svc.store,
    // as startWorker does: one positions read per account serves its tasks
    adapters: shareAccountReads(traded, clock),
    masterKey: MASTER,
    clock,
    workerId: 'test-worker',
    leaseMs: 30_000,
    fundingGraceMs: o.fundingGraceMs ?? 3_600_000,
    logger: { info: () => {}, error: () => {} },
    ...(o.taskSampleMs === undefined ? {} : { taskSampleMs: o.taskSampleMs }),
  })
  // registered like a running `dn worker`, so resolve sees it unfenced
  const at = new Date(clock.now()).toISOString()
  await svc.store.workers.heartbeat({
    id: worker.workerId,
    startedAt: at,
    heartbeatAt: at,
    fencedAt: null,
  })
  const drain = async (maxRounds = 50) => {
    let total = 0
    for (let i = 0; i < maxRounds; i++) {
      const did = await runWorkerRound(worker)
      total += did
      if (did === 0) return total
    }
    return total
  }
  return {
    svc,
    venues,
    clock,
    worker,
    drain,
    async advance(ms) {
      clock.advance(ms)
      await drain()
    },
    async owner(opts = {}) {
      const wallet = newWallet()
      const owner = wallet.address.toLowerCase()
      const index: Partial<Record<VenueId, string>> = {}
      for (const v of VENUES)
        index[v] = String(venues.faucet(v, owner).accountIndex)
      await bindVenues(svc.store, owner, VENUES, index)
      return createOwnerWithKey(svc, {
        wallet,
        bound: [],
        venues: opts.venues ?? [...VENUES],
        maxSizeUsd: opts.maxSizeUsd ?? 100_000,
      })
    },
    async createTask(o, body = {}) {
      const res = await call(svc, 'POST', TASKS, {
        key: o.apiKey,
        body: {
          longVenue: 'aster',
          shortVenue: 'lighter',
          longMarket: 'BTCUSDT',
          shortMarket: 'BTC',
          sizeUsd: 2_000,
          ...body,
        },
      })
      expect(res.status, res.text).toBe(202)
      return res.body.taskId as string
    },
    async getTask(o, id) {
      const res = await call(svc, 'GET', `${TASKS}/${id}`, { key: o.apiKey })
      expect(res.status).toBe(200)
      return res.body.task
    },
    taskAction: (o, id, action, body = {}) =>
      call(svc, 'POST', `${TASKS}/${id}/${action}`, { key: o.apiKey, body }),
    close: () => svc.close(),
  }
}

const TASKS = '/v1/delta-neutral/tasks'
