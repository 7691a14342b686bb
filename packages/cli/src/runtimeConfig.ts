import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import type { BindingConfig, Store } from '@dn/core'
import { LOG_LEVELS, type LogLevel } from '@dn/server'
import { checkMasterKey, loadMasterKey } from './masterKey.js'
import { openStore } from './openStore.js'

export interface CommonFlags {
  data: string
  db?: string
}

export function envFlag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  return !/^(false|0|no|off)$/i.test(value)
}

/**
 * Data folder, master key and store, shared by every long-running command.
 * Only `dn up` may create a master key; deployments must provide one.
 */
export async function openRuntime(
  flags: CommonFlags,
  createKey: boolean,
): Promise<{ dataDir: string; masterKey: Buffer; store: Store }> {
  const dataDir = resolve(flags.data)
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const master = loadMasterKey(process.env, dataDir, createKey)
  if (master.origin === 'created') {
    process.stderr.write(
      `dn: created a master key at ${master.path} (mode 0600); back it up, it encrypts venue credentials\n`,
    )
  }
  const store = await openStore(flags.db ?? process.env.DN_DB, dataDir)
  try {
    await checkMasterKey(store.settings, master.key)
  } catch (err) {
    await store.close()
    throw err
  }
  return { dataDir, masterKey: master.key, store }
}

/**
 * Runs `stop` once on SIGINT/SIGTERM, writes one line with what it left
 * (its answer) and exits 0; a second signal exits at once.
 */
export function onShutdown(stop: () => Promise<string>): void {
  let stopping = false
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`dn: ${signal} again; exiting without waiting\n`)
      process.exit(1)
    }
    stopping = true
    const started = Date.now()
    stop().then(
      (left) => {
        const took = ((Date.now() - started) / 1000).toFixed(1)
        process.stderr.write(`dn: stopped on ${signal} in ${took} s: ${left}\n`)
        process.exit(0)
      },
      (err: unknown) => {
        process.stderr.write(
          `dn: shutdown error: ${err instanceof Error ? err.message : String(err)}\n`,
        )
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', handler)
  process.on('SIGTERM', handler)
}

/** Fee approval and Lighter signer chain, from the environment. */
export function bindingConfigFromEnv(env: NodeJS.ProcessEnv): BindingConfig {
  return {
    feeApproval: envFlag(env.DN_FEE_APPROVAL, false),
    builderAddress:
      env.DN_BUILDER_ADDRESS ?? '0x0000000000000000000000000000000000000000',
    builderName: env.DN_BUILDER_NAME ?? 'dn',
    lighterTestnet: envFlag(env.DN_LIGHTER_TESTNET, false),
  }
}

/** A positive whole number from the environment; a bad value stops the start. */
function positiveIntFromEnv(
  env: NodeJS.ProcessEnv,
  name: string,
  meaning: string,
): number | undefined {
  const raw = env[name]
  if (raw === undefined || raw === '') return undefined
  const n = Number(raw)
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new RangeError(
      `${name} must be a whole number above 0 (${meaning}), not ${JSON.stringify(raw)}`,
    )
  }
  return n
}

/** The HTTP server's connection caps (`DN_HTTP_MAX_CONNECTIONS`, `…_PER_CLIENT`). */
export function httpLimitsFromEnv(env: NodeJS.ProcessEnv): {
  readonly maxConnections: number | undefined
  readonly maxConnectionsPerClient: number | undefined
} {
  return {
    maxConnections: positiveIntFromEnv(
      env,
      'DN_HTTP_MAX_CONNECTIONS',
      'open connections the server keeps',
    ),
    maxConnectionsPerClient: positiveIntFromEnv(
      env,
      'DN_HTTP_MAX_CONNECTIONS_PER_CLIENT',
      'open connections one client address keeps',
    ),
  }
}

/**
 * `DN_LOG_LEVEL` (`debug`, `info`, `warn`, `error`); unset is `info`, any
 * other value stops the start with a message saying what is accepted.
 */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.DN_LOG_LEVEL
  if (raw === undefined || raw === '') return 'info'
  const level = raw.toLowerCase()
  if ((LOG_LEVELS as readonly string[]).includes(level)) {
    return level as LogLevel
  }
  throw new RangeError(
    `DN_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(raw)}`,
  )
}
