/** A port flag that is not an integer port number. */
class PortFlagError extends Error {
  readonly code = 'invalid_port'
  override name = 'PortFlagError'
}

/**
 * A TCP port from a flag's text: an integer from 0 (any free port) to
 * `max`, so a typo is named with its flag instead of failing in `listen`.
 * @param flag e.g. `--port <port> (or DN_PORT)`
 * @param max the highest port allowed (a range's first port leaves room for the rest) @default 65535
 * @throws PortFlagError naming the flag
 */
export function portFlag(flag: string, value: string, max = 65_535): number {
  const port = /^\d{1,5}$/.test(value.trim()) ? Number(value) : Number.NaN
  if (!(port >= 0 && port <= max)) {
    throw new PortFlagError(
      `${flag} must be a port number from 0 (any free port) to ${max}, not ${JSON.stringify(value)}`,
    )
  }
  return port
}
