// The service as `dn up` runs it, in one process, for the venue budget
// benchmarks: SQLite store, real protocol adapters and binders against
// the protocol fakes (enforcing the venues' published limits) over one
// simulator, the HTTP API and one worker.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  composeServerDeps,
  composeVenues,
  composeWorkerDeps,
  deriveKey,
  PROTOCOL_VENUES,
  protocolVenueOptions,
} from '../packages/cli/dist/index.js'
import {
  createAdapterOrderLookup,
  createAesGcmSecrets,
  startWorker,
} from '../packages/core/dist/index.js'
import { createSqliteStore } from '../packages/core/dist/store/sqlite.js'
import {
  createDnMetrics,
  silentLogger,
  startHttpServer,
} from '../packages/server/dist/index.js'
import { createSimVenues } from '../packages/venues/dist/sim/index.js'

/**
 * @param o.closers `[name, close]` pairs this pushes to, closed in reverse
 * @param o.workerAdapters the adapters the worker gets (a benchmark's
 *   counting wrappers) @default the venues' own
 */
export async function composeBenchService(o) {
  const { env, master, closers } = o
  const dir = mkdtempSync(join(tmpdir(), 'dn-bench-budget-'))
  closers.push(['temp dir', async () => rmSync(dir, { recursive: true })])
  const store = await createSqliteStore({ filename: join(dir, 'dn.sqlite') })
  closers.push(['store', () => store.close()])

  // as `dn up`: budget share, Lighter tier, networks and fees from the
  // environment, nonces and stored credentials from the store
  // and as `dn up`: one metrics registry for the API, worker and venues
  const metrics = createDnMetrics()
  const options = { ...protocolVenueOptions(env, store, master), metrics }
  const lighterTier = options.lighterTier ?? 'standard'
  const sim = createSimVenues({ seed: Number(env.BENCH_BUDGET_SEED ?? 1) })
  // as `dn up`: a fake per venue that enforces its published limits
  const venues = await composeVenues(sim, {}, options)
  const fakes = Object.fromEntries(
    PROTOCOL_VENUES.map((venue) => [
      venue,
      { rateLimitUsage: () => venues.rateLimitUsage()[venue] ?? [] },
    ]),
  )
  closers.push(['venues', () => venues.close()])
  const secrets = createAesGcmSecrets(deriveKey(master, 'venue-credentials'))

  const deps = composeServerDeps({
    store,
    markets: venues.marketData,
    masterKey: master,
    env: 'bench',
    // clients poll task status: keep the API's own 120/min per key out of
    // the way (it is not what is measured)
    rateLimit: 100_000,
    logger: silentLogger,
    venueOrders: createAdapterOrderLookup({
      repos: store,
      secrets,
      adapters: venues.adapters,
    }),
    binding: { binders: venues.binders, config: options.config },
    metrics,
  })
  const server = await startHttpServer(deps, { host: '127.0.0.1', port: 0 })
  closers.push(['http server', () => server.close()])
  let worker
  const startTheWorker = () => {
    worker = startWorker(
      composeWorkerDeps({
        store,
        adapters: o.workerAdapters?.(venues.adapters) ?? venues.adapters,
        binders: venues.binders,
        masterKey: master,
        logger: o.workerLogger,
        observer: metrics,
      }),
    )
  }
  // the worker stops before the server, the fakes and the store close
  closers.push(['worker', async () => worker?.stop()])
  if (o.startWorker !== false) startTheWorker()
  return {
    sim,
    venues,
    store,
    secrets,
    fakes,
    url: server.url,
    lighterTier,
    options,
    startWorker: startTheWorker,
  }
}
