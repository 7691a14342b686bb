import { Writable } from 'node:stream'
import type { LogFields, Logger } from '@dn/core'
import { pino } from 'pino'
import { build as prettyStream } from 'pino-pretty'

export type { Logger } from '@dn/core'
export { silentLogger } from '@dn/core'

/** `DN_LOG_LEVEL`: the least severe level written. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

/** Where lines go: anything with a `write(line)` (stderr by default). */
export interface LogDestination {
  write(line: string): unknown
}

export interface CreateLoggerOptions {
  /** @default 'info' */
  readonly level?: LogLevel | undefined
  /**
   * human lines (time, level, message, fields) instead of JSON lines
   * @default whether stderr is a terminal
   */
  readonly pretty?: boolean | undefined
  /** @default process.stderr */
  readonly destination?: LogDestination | undefined
}

/**
 * Field names whose values are never written, at the top level or one
 * level down, whatever a caller passes: a second guard behind the rule
 * that callers log ids and codes only.
 */
const REDACTED = [
  'secret',
  'apiKey',
  'authorization',
  'privateKey',
  'signature',
  'masterKey',
  'credential',
  'password',
]

/**
 * The service's logger (pino): one JSON line per event on stderr, or
 * pretty lines when stderr is a terminal. Each line has `time` (ISO),
 * `level` (its name), `msg` and the caller's fields.
 * @example createLogger({ level: 'debug' }).info('request', { requestId })
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr
  const pretty =
    options.pretty ??
    (destination === process.stderr && process.stderr.isTTY === true)
  const stream = pretty
    ? prettyStream({
        destination: asStream(destination),
        sync: true,
        colorize: destination === process.stderr,
        translateTime: 'SYS:HH:MM:ss.l',
      })
    : destination
  const log = pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: REDACTED.flatMap((k) => [k, `*.${k}`]),
        censor: '[redacted]',
      },
    },
    stream as pino.DestinationStream,
  )
  const at =
    (level: LogLevel) =>
    (msg: string, fields?: LogFields): void => {
      log[level](fields ?? {}, msg)
    }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  }
}

/** pino-pretty writes to a stream: a bare `write(line)` becomes one. */
function asStream(d: LogDestination): NodeJS.WritableStream {
  if (d instanceof Writable) return d
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      d.write(chunk.toString())
      done()
    },
  })
}
