/**
 * One JSON line per event on stderr. Callers pass only what is safe to
 * keep: never headers, bodies, keys or signatures.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
  /** what an operator reads only while looking into something */
  debug?(msg: string, fields?: Record<string, unknown>): void
}

/** @param debug write debug lines too (`DN_LOG_LEVEL=debug`) */
export function createJsonLogger(
  write: (line: string) => void = (l) => process.stderr.write(l),
  debug = false,
): Logger {
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) =>
    write(
      `${JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields })}\n`,
    )
  return {
    info: (msg, fields) => emit('info', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    debug: (msg, fields) => {
      if (debug) emit('debug', msg, fields)
    },
  }
}

export const silentLogger: Logger = Object.freeze({
  info: () => {},
  error: () => {},
})
