import { createDnClient, type DnClient } from '@dn/client'
import type { Command } from 'commander'
import {
  type Connection,
  type GlobalFlags,
  resolveConnection,
} from './config/connection.js'
import { CliError } from './errors/cliErrors.js'
import { NO_KEY_HINT } from './errors/describeError.js'
import { EXIT } from './errors/exitCodes.js'

/** What a service command works with: the resolved connection and a client. */
interface CliContext {
  readonly conn: Connection
  readonly json: boolean
  readonly client: DnClient
  /** the client, or a clear error when no API key is configured */
  readonly keyed: () => DnClient
}

/** Resolves the global flags of `cmd` (flags > env > config profile). */
export function cliContext(cmd: Command): CliContext {
  const flags = cmd.optsWithGlobals<GlobalFlags>()
  const conn = resolveConnection(flags)
  const client = createDnClient({
    baseUrl: conn.url,
    apiKey: conn.apiKey,
    ...(process.env.BINDING_AUTH_DOMAIN
      ? { authDomain: process.env.BINDING_AUTH_DOMAIN }
      : {}),
  })
  return {
    conn,
    json: flags.json === true,
    client,
    keyed() {
      if (!conn.apiKey) {
        throw new CliError(
          'no_api_key',
          EXIT.auth,
          `no API key for ${conn.url} (profile ${conn.profile})`,
          NO_KEY_HINT,
        )
      }
      return client
    },
  }
}
