/** What a log line carries besides its message: ids, codes, timings. */
export type LogFields = Readonly<Record<string, unknown>>

/**
 * The log port: one structured line per event. Core writes through it and
 * never picks a library; the edge (server, CLI) builds the real one (pino).
 * Callers pass only what is safe to keep: ids, codes, statuses, timings,
 * never headers, bodies, keys, signatures or decrypted credentials.
 */
export interface Logger {
  error(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  /** something went wrong that the service works around (a venue refusal) */
  warn?(msg: string, fields?: LogFields): void
  /** what an operator reads only while looking into something */
  debug?(msg: string, fields?: LogFields): void
}

/** A logger that writes nothing (tests, benches, embedders that log elsewhere). */
export const silentLogger: Logger = Object.freeze({
  info: () => {},
  error: () => {},
})
