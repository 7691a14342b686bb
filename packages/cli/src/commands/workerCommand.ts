import { msToIso, startWorker, systemClock } from '@dn/core'
import { createDnMetrics, startMetricsServer } from '@dn/server'
import type { Command } from 'commander'
import {
  addVenueUrlOptions,
  protocolUrlsFromEnv,
  protocolVenueOptions,
  type VenueUrlFlags,
} from '../composeProtocolVenues.js'
import { composeRemoteVenues } from '../composeRemoteVenues.js'
import { composeWorkerDeps } from '../composeWorkerDeps.js'
import { portFlag } from '../portFlag.js'
import { type CommonFlags, onShutdown, openRuntime } from '../runtimeConfig.js'
import { describeShutdown } from '../shutdownReport.js'
import { examples } from './commandKit.js'

/**
 * `dn worker`: one worker process; run several against PostgreSQL.
 * `dn worker fence`: marks every registered worker fenced, so each stops at
 * its next heartbeat and no claim of theirs can write again.
 */
export function registerWorkerCommands(program: Command): void {
  const worker = program
    .command('worker')
    .description(
      'run a worker (`dn worker`), or fence every worker (`dn worker fence`)',
    )
  const run = worker
    .command('run', { isDefault: true })
    .description('run a worker that executes tasks and orders')
    .addHelpText(
      'after',
      examples([
        'dn worker run --sim-url http://127.0.0.1:8081',
        'DN_DB=postgres://dn:…@db/dn DN_MASTER_KEY=… dn worker run',
      ]),
    )
    .option(
      '--data <dir>',
      'data folder (SQLite file, master key)',
      process.env.DN_DATA ?? '.dn',
    )
    .option('--db <url>', 'postgres://... or sqlite:<path>')
    .option(
      '--sim-url <url>',
      'a running `dn up --sim-port`, for venues without a URL (DN_SIM_URL)',
      process.env.DN_SIM_URL ?? 'http://127.0.0.1:8081',
    )
    .option('--lease-ms <ms>', 'lease length of a claim', '30000')
    .option(
      '--metrics-port <port>',
      'serve Prometheus GET /metrics on this port, 0 for a free one (DN_METRICS_PORT; default: not served)',
      process.env.DN_METRICS_PORT || undefined,
    )
    .option(
      '--metrics-host <host>',
      'address the metrics port binds (DN_METRICS_HOST)',
      process.env.DN_METRICS_HOST || '127.0.0.1',
    )
    .action(async (flags: WorkerFlags) => {
      const { masterKey, store } = await openRuntime(flags, false)
      const metrics = createDnMetrics()
      metrics.watchQueues(store, systemClock)
      const { adapters, binders } = await composeRemoteVenues(
        flags.simUrl,
        protocolUrlsFromEnv(process.env, flags),
        { ...protocolVenueOptions(process.env, store, masterKey), metrics },
      )
      const deps = composeWorkerDeps({
        store,
        adapters,
        binders,
        masterKey,
        leaseMs: Number(flags.leaseMs),
        observer: metrics,
        ...(process.env.DN_WORKER_ID
          ? { workerId: process.env.DN_WORKER_ID }
          : {}),
      })
      const scrape =
        flags.metricsPort === undefined
          ? undefined
          : await startMetricsServer({
              metrics,
              host: flags.metricsHost,
              port: portFlag('--metrics-port <port>', flags.metricsPort),
              token: process.env.DN_METRICS_TOKEN || undefined,
            })
      const running = startWorker(deps)
      // stopping is graceful from the moment anyone is told it runs
      onShutdown(async () => {
        await scrape?.close()
        const worker = await running.stop()
        await store.close()
        return describeShutdown({ worker })
      })
      process.stderr.write(
        `dn: worker ${deps.workerId} running (store: ${store.dialect})${scrape ? `, metrics ${scrape.url}` : ''}\n`,
      )
      const end = await running.done
      if (end === 'fenced') {
        process.stderr.write(
          `dn: worker ${deps.workerId} was fenced; exiting\n`,
        )
        await store.close()
        process.exit(3)
      }
    })

  addVenueUrlOptions(run, 'the protocol fake published by --sim-url')

  worker
    .command('fence')
    .description(
      'fence every worker: they stop, and their leases can no longer write',
    )
    .option('--data <dir>', 'data folder', process.env.DN_DATA ?? '.dn')
    .option('--db <url>', 'postgres://... or sqlite:<path>')
    .action(async (flags: CommonFlags, cmd: Command) => {
      // --json is the global option
      const { json } = cmd.optsWithGlobals<{ json?: boolean }>()
      const { store } = await openRuntime(flags, false)
      const fenced = await store.workers.fenceAll(msToIso(Date.now()))
      const workers = await store.workers.list()
      await store.close()
      if (json) {
        process.stdout.write(`${JSON.stringify({ fenced, workers })}\n`)
        return
      }
      process.stdout.write(
        `fenced ${fenced} worker(s); ${workers.length} registered, all fenced\n`,
      )
    })
}

interface WorkerFlags extends CommonFlags, VenueUrlFlags {
  readonly simUrl: string
  readonly leaseMs: string
  readonly metricsPort?: string | undefined
  readonly metricsHost: string
}
