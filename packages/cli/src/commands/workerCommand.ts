import {
  msToIso,
  type Store,
  startWorker,
  VENUES,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
} from '@dn/core'
import { createSimRpcAdapter } from '@dn/venues'
import type { Command } from 'commander'
import {
  addVenueUrlOptions,
  composeProtocolVenues,
  type ProtocolUrls,
  protocolUrlsFromEnv,
  protocolVenueOptions,
  type VenueUrlFlags,
} from '../composeProtocolVenues.js'
import { composeWorkerDeps } from '../composeWorkerDeps.js'
import { type CommonFlags, onShutdown, openRuntime } from '../runtimeConfig.js'

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
    .option(
      '--data <dir>',
      'data folder (SQLite file, master key)',
      process.env.DN_DATA ?? '.dn',
    )
    .option('--db <url>', 'postgres://... or sqlite:<path>')
    .option(
      '--sim-url <url>',
      'simulated venues to trade on (a `dn up --sim-port`)',
      process.env.DN_SIM_URL ?? 'http://127.0.0.1:8081',
    )
    .option('--lease-ms <ms>', 'lease length of a claim', '30000')
    .action(async (flags: WorkerFlags) => {
      const { masterKey, store } = await openRuntime(flags, false)
      const { adapters, binders } = await workerVenues(flags, store, masterKey)
      const deps = composeWorkerDeps({
        store,
        adapters,
        ...(binders ? { binders } : {}),
        masterKey,
        leaseMs: Number(flags.leaseMs),
        ...(process.env.DN_WORKER_ID
          ? { workerId: process.env.DN_WORKER_ID }
          : {}),
      })
      const running = startWorker(deps)
      process.stderr.write(
        `dn: worker ${deps.workerId} running (store: ${store.dialect})\n`,
      )
      onShutdown(async () => {
        await running.stop()
        await store.close()
      })
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
    .option('--json', 'print JSON')
    .action(async (flags: CommonFlags & { json?: boolean }) => {
      const { store } = await openRuntime(flags, false)
      const fenced = await store.workers.fenceAll(msToIso(Date.now()))
      const workers = await store.workers.list()
      await store.close()
      if (flags.json) {
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
}

/**
 * The venues of a separate worker: each venue's real protocol where `dn up`
 * publishes a fake (or a URL is given), the simulated RPC otherwise. It
 * binds the venues it speaks the protocol of.
 */
async function workerVenues(
  flags: WorkerFlags,
  store: Store,
  masterKey: Buffer,
): Promise<{
  adapters: Record<VenueId, VenueAdapter>
  binders: Partial<Record<VenueId, VenueBinder>>
}> {
  const urls: ProtocolUrls = {
    ...(await publishedProtocolUrls(flags.simUrl)),
    ...protocolUrlsFromEnv(process.env, flags),
  }
  const protocol = composeProtocolVenues(
    urls,
    protocolVenueOptions(process.env, store, masterKey),
  )
  const adapters = {} as Record<VenueId, VenueAdapter>
  for (const venue of VENUES) {
    adapters[venue] =
      protocol.adapters[venue] ??
      createSimRpcAdapter({ baseUrl: flags.simUrl, venue })
  }
  return { adapters, binders: protocol.binders }
}

/** `GET <sim>/venues`; a simulator that publishes none answers `{}`. */
async function publishedProtocolUrls(simUrl: string): Promise<ProtocolUrls> {
  const res = await fetch(new URL('/venues', simUrl)).catch((cause) => {
    throw new Error(
      `cannot reach the simulated venues at ${simUrl} (start \`dn up\` first, or pass --sim-url)`,
      { cause },
    )
  })
  if (res.status === 404) return {}
  if (!res.ok) {
    throw new Error(`${simUrl}/venues answered HTTP ${res.status}`)
  }
  const body = (await res.json()) as { protocolUrls?: ProtocolUrls }
  return body.protocolUrls ?? {}
}
