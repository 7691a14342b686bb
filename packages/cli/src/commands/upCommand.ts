import { resolve } from 'node:path'
import {
  createAdapterOrderLookup,
  createAesGcmSecrets,
  startWorker,
  type VenueId,
  type WorkerStopReport,
} from '@dn/core'
import { createDnMetrics, startHttpServer } from '@dn/server'
import {
  createSimVenues,
  type SimStateSaver,
  startFaucetServer,
} from '@dn/venues/sim'
import type { Command } from 'commander'
import {
  addVenueUrlOptions,
  PROTOCOL_VENUES,
  type ProtocolUrls,
  protocolUrlsFromEnv,
  protocolVenueOptions,
} from '../composeProtocolVenues.js'
import { composeRemoteVenues } from '../composeRemoteVenues.js'
import { composeServerDeps } from '../composeServerDeps.js'
import { composeVenues } from '../composeVenues.js'
import { composeWorkerDeps } from '../composeWorkerDeps.js'
import { durationFlag } from '../durationFlag.js'
import { deriveKey } from '../masterKey.js'
import { portFlag } from '../portFlag.js'
import { assertPortsFree } from '../portsFree.js'
import {
  bindingConfigFromEnv,
  type CommonFlags,
  envFlag,
  httpLimitsFromEnv,
  onShutdown,
  openRuntime,
} from '../runtimeConfig.js'
import { describeShutdown } from '../shutdownReport.js'
import {
  loadSimState,
  simStatePath,
  startSimStatePersistence,
} from '../simStatePersistence.js'
import { examples } from './commandKit.js'

interface UpFlags extends CommonFlags {
  port: string
  host: string
  simPort: string
  venuePorts?: string
  seed: string
  fundingInterval?: string
  hlUrl?: string
  lighterUrl?: string
  lighterMainnetUrl?: string
  asterUrl?: string
  simUrl?: string
}

const DEFAULT_SIM_URL = process.env.DN_SIM_URL ?? 'http://127.0.0.1:8081'
const HOUR_MS = 3_600_000
const API_PORT_FLAG = '--port <port> (or DN_PORT)'
const SIM_PORT_FLAG = '--sim-port <port>'
const VENUE_PORTS_FLAG = '--venue-ports <first> (or DN_VENUE_PORTS)'

/**
 * The ports of the protocol fakes `dn up` starts, one after another from
 * `first` in PROTOCOL_VENUES order (a venue keeps its place when another
 * is given a URL), so a client's base URL outlives a restart.
 */
function venuePorts(
  first: string,
  urls: ProtocolUrls,
): Partial<Record<VenueId, number>> {
  const start = portFlag(
    VENUE_PORTS_FLAG,
    first,
    65_535 - (PROTOCOL_VENUES.length - 1),
  )
  return Object.fromEntries(
    PROTOCOL_VENUES.flatMap((venue, i) =>
      urls[venue] ? [] : [[venue, start === 0 ? 0 : start + i]],
    ),
  )
}

/**
 * `dn up`: the whole service on this machine: HTTP API, worker and
 * simulated venues (with their faucet) in one process on embedded SQLite.
 * `dn serve`: the HTTP API alone, for a deployment with separate workers.
 */
async function runUp(flags: UpFlags, mode: 'up' | 'serve'): Promise<void> {
  const env = process.env
  const port = portFlag(API_PORT_FLAG, flags.port)
  const simPort = mode === 'up' ? portFlag(SIM_PORT_FLAG, flags.simPort) : 0
  const urls = protocolUrlsFromEnv(env, flags)
  const fakePorts =
    mode === 'up' && flags.venuePorts !== undefined
      ? venuePorts(flags.venuePorts, urls)
      : {}
  await assertPortsFree([
    {
      host: flags.host,
      port,
      what: 'the API',
      flag: API_PORT_FLAG,
    },
    ...(mode === 'up'
      ? [
          {
            host: '127.0.0.1',
            port: simPort,
            what: 'the simulated venues and faucet',
            flag: SIM_PORT_FLAG,
          },
        ]
      : []),
    ...Object.entries(fakePorts).map(([venue, p]) => ({
      host: '127.0.0.1',
      port: p,
      what: `the ${venue} protocol fake`,
      flag: VENUE_PORTS_FLAG,
    })),
  ])
  const fundingIntervalMs =
    mode === 'up' && flags.fundingInterval !== undefined
      ? durationFlag(
          '--funding-interval (or DN_SIM_FUNDING_INTERVAL)',
          flags.fundingInterval,
          1000,
          24 * HOUR_MS,
        )
      : undefined
  // an unusable saved simulator stops `dn up` before anything is written
  const saved = mode === 'up' ? loadSimState(resolve(flags.data)) : null
  const { dataDir, masterKey, store } = await openRuntime(flags, mode === 'up')
  const bindingConfig = bindingConfigFromEnv(env)
  const sim = createSimVenues({
    seed: Number(flags.seed),
    sharedUnderlying: mode === 'up',
    fundingIntervalMs,
    restore: saved?.sim,
  })
  // one registry: the API's requests and, in `dn up`, its worker's work
  const metrics = createDnMetrics()
  const options = { ...protocolVenueOptions(env, store, masterKey), metrics }
  // `dn up` runs the venues; `dn serve` speaks to the same ones as workers
  // the simulator's saver, started once the fakes exist: until then a
  // fake's answers do not wait for it
  let saver: SimStateSaver | undefined
  const durable = () => saver?.flush() ?? Promise.resolve()
  const venues =
    mode === 'up'
      ? await composeVenues(
          sim,
          urls,
          options,
          saved?.fakes,
          fakePorts,
          durable,
        )
      : await composeRemoteVenues(
          flags.simUrl ?? DEFAULT_SIM_URL,
          urls,
          options,
        )
  const { binders } = venues
  const deps = composeServerDeps({
    store,
    markets: venues.marketData,
    masterKey,
    env: env.DN_ENV || 'local',
    ...(env.BINDING_AUTH_DOMAIN ? { authDomain: env.BINDING_AUTH_DOMAIN } : {}),
    workerResize: envFlag(env.WORKER_RESIZE, true),
    ...(env.DN_RATE_LIMIT ? { rateLimit: Number(env.DN_RATE_LIMIT) } : {}),
    sharedRateLimit: envFlag(env.DN_SHARED_RATE_LIMIT, false),
    venueOrders: createAdapterOrderLookup({
      repos: store,
      secrets: createAesGcmSecrets(deriveKey(masterKey, 'venue-credentials')),
      adapters: venues.adapters,
    }),
    binding: { binders, config: bindingConfig },
    metrics,
    metricsToken: env.DN_METRICS_TOKEN || undefined,
  })
  const server = await startHttpServer(deps, {
    host: flags.host,
    port,
    ...httpLimitsFromEnv(env),
  })
  const parts = [`api ${server.url}`]
  let stopWorker = async (): Promise<WorkerStopReport | undefined> => undefined
  let stopFaucet = async () => {}
  let saveSim = () => {}
  if (mode === 'up') {
    const started = startSimStatePersistence(dataDir, sim, venues)
    saver = started
    saveSim = () => {
      started.stop()
      started.saveNow()
    }
    const faucet = await startFaucetServer({
      venues: sim,
      port: simPort,
      protocolUrls: venues.protocolUrls,
      fundingIntervalMs: venues.simFundingIntervalMs,
    })
    stopFaucet = faucet.close
    const worker = startWorker(
      composeWorkerDeps({
        store,
        adapters: venues.adapters,
        binders,
        masterKey,
        logger: deps.logger,
        observer: metrics,
      }),
    )
    stopWorker = worker.stop
    parts.push(
      `simulated venues ${faucet.url} (POST /faucet)`,
      'worker running',
    )
  }
  // stopping is graceful from the moment anyone is told it runs
  onShutdown(async () => {
    // no new request, then no new claim: what the API accepted is queued
    const http = await server.close()
    const worker = await stopWorker()
    await stopFaucet()
    // after the last request: what the venues hold now is what is saved
    saveSim()
    await venues.close()
    await store.close()
    return describeShutdown({ http, worker })
  })
  const protocols = Object.entries(venues.protocolUrls).map(
    ([venue, url]) => `${venue} ${url}`,
  )
  process.stderr.write(
    `${[
      `dn: ${parts.join(', ')} (store: ${store.dialect}, env: ${deps.env})`,
      `dn: venue protocols: ${protocols.join(', ')}`,
      `dn: in a browser: dashboard ${server.url}/, bind a wallet ${server.url}/bind, API reference ${server.url}/docs; Prometheus ${server.url}/metrics`,
      ...(saved
        ? [
            `dn: simulated venues restored from ${simStatePath(dataDir)} (saved ${new Date(saved.savedAt).toISOString()})`,
          ]
        : []),
      ...(mode === 'up'
        ? [
            'dn: next, in another terminal: npx dn wallet new && npx dn faucet && npx dn bind --venues hl,aster (README: "Using it"); Ctrl-C stops',
          ]
        : []),
    ].join('\n')}\n`,
  )
}

export function registerUpCommands(program: Command): void {
  for (const mode of ['up', 'serve'] as const) {
    const cmd = program
      .command(mode)
      .description(
        mode === 'up'
          ? 'run everything on this machine: API, worker and simulated venues on embedded SQLite'
          : 'run the HTTP API only (DN_DB and DN_MASTER_KEY for a deployment)',
      )
      .option('--port <port>', 'HTTP port', process.env.DN_PORT ?? '8080')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option(
        '--data <dir>',
        'data folder (SQLite file, master key, saved simulated venues)',
        process.env.DN_DATA ?? '.dn',
      )
      .option(
        '--db <url>',
        'postgres://... or sqlite:<path> (default: <data>/dn.sqlite)',
      )
      .option('--seed <n>', 'seed of the simulated markets', '1')
    if (mode === 'up') {
      cmd.option(
        '--funding-interval <duration>',
        'how often the simulated venues settle funding, e.g. 60s, 5m, 1h (DN_SIM_FUNDING_INTERVAL)',
        process.env.DN_SIM_FUNDING_INTERVAL,
      )
      addVenueUrlOptions(cmd, 'a local protocol fake')
      cmd.option(
        SIM_PORT_FLAG,
        'port of the simulated venues and faucet',
        '8081',
      )
      cmd.option(
        '--venue-ports <first>',
        'pin the local protocol fakes to <first> (hl), +1 (lighter), +2 (lighter-mainnet), +3 (aster), for clients pointed at them (DN_VENUE_PORTS; default: free ports)',
        process.env.DN_VENUE_PORTS,
      )
    } else {
      addVenueUrlOptions(cmd, 'the fake a running `dn up` publishes')
      cmd.option(
        '--sim-url <url>',
        'a running `dn up --sim-port`, for venues without a URL (DN_SIM_URL)',
        DEFAULT_SIM_URL,
      )
    }
    cmd.addHelpText(
      'after',
      examples(
        mode === 'up'
          ? [
              'dn up',
              'dn up --port 9080 --sim-port 9081 --funding-interval 1m',
              'dn up --venue-ports 8082',
              'dn up --data /tmp/demo',
            ]
          : [
              'DN_DB=postgres://dn:…@db/dn DN_MASTER_KEY=… dn serve --host 0.0.0.0 --port 8080',
            ],
      ),
    )
    cmd.action((flags: UpFlags) =>
      runUp({ ...flags, simPort: flags.simPort ?? '8081' }, mode),
    )
  }
}
