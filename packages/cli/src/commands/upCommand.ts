import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { startHttpServer } from '@dn/server'
import { createSimMarketData } from '@dn/venues'
import type { Command } from 'commander'
import { composeServerDeps } from '../composeServerDeps.js'
import { loadMasterKey } from '../masterKey.js'
import { openStore } from '../openStore.js'

interface ServeFlags {
  port: string
  host: string
  data: string
  db?: string
}

function envFlag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  return !/^(false|0|no|off)$/i.test(value)
}

/**
 * Starts the HTTP service. `up` is the laptop mode: embedded SQLite in the
 * data folder, a master key created on first start, simulated venues.
 */
export async function runServe(
  flags: ServeFlags,
  mode: 'up' | 'serve',
): Promise<void> {
  const env = process.env
  const dataDir = resolve(flags.data)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const master = loadMasterKey(env, dataDir, mode === 'up')
  if (master.origin === 'created') {
    process.stderr.write(
      `dn: created a master key at ${master.path} (mode 0600); back it up, it encrypts venue credentials\n`,
    )
  }
  const store = await openStore(flags.db ?? env.DN_DB, dataDir)
  const deps = composeServerDeps({
    store,
    markets: createSimMarketData(),
    masterKey: master.key,
    env: env.DN_ENV || 'local',
    authDomain: env.BINDING_AUTH_DOMAIN || undefined,
    workerResize: envFlag(env.WORKER_RESIZE, true),
    rateLimit: env.DN_RATE_LIMIT ? Number(env.DN_RATE_LIMIT) : undefined,
    sharedRateLimit: envFlag(env.DN_SHARED_RATE_LIMIT, false),
  } as Parameters<typeof composeServerDeps>[0])
  const server = await startHttpServer(deps, {
    host: flags.host,
    port: Number(flags.port),
  })
  process.stderr.write(
    `dn: serving ${server.url} (store: ${store.dialect}, env: ${deps.env})\n`,
  )
  const stop = async () => {
    await server.close()
    await store.close()
    process.exit(0)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

export function registerServeCommands(program: Command): void {
  for (const mode of ['up', 'serve'] as const) {
    program
      .command(mode)
      .description(
        mode === 'up'
          ? 'run the service on this machine: HTTP API on embedded SQLite with simulated venues'
          : 'run the HTTP API for a deployment (DN_DB, DN_MASTER_KEY required)',
      )
      .option('--port <port>', 'HTTP port', process.env.DN_PORT ?? '8080')
      .option('--host <host>', 'address to bind', '127.0.0.1')
      .option(
        '--data <dir>',
        'data folder (SQLite file, master key)',
        process.env.DN_DATA ?? '.dn',
      )
      .option(
        '--db <url>',
        'postgres://... or sqlite:<path> (default: <data>/dn.sqlite)',
      )
      .action((flags: ServeFlags) => runServe(flags, mode))
  }
}
