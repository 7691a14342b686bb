import { createLogger, type Logger } from '@dn/server'
import { logLevelFromEnv } from './runtimeConfig.js'

let shared: Logger | undefined

/**
 * The one logger of a `dn up`, `dn serve` or `dn worker` process: pino on
 * stderr at `DN_LOG_LEVEL`, pretty on a terminal and JSON lines otherwise.
 * Built on first use, so a bad `DN_LOG_LEVEL` stops the start with its
 * message before anything else is logged.
 */
export function processLogger(): Logger {
  shared ??= createLogger({ level: logLevelFromEnv(process.env) })
  return shared
}
