import { createServer } from 'node:net'

/** A port `dn` is about to listen on, and the flag that moves it. */
interface WantedPort {
  readonly host: string
  readonly port: number
  /** what listens there, e.g. `the API` */
  readonly what: string
  /** e.g. `--port <port> (or DN_PORT)` */
  readonly flag: string
}

/** A port is taken: says which flag picks another. */
class PortInUseError extends Error {
  readonly code = 'port_in_use'
  constructor(wanted: WantedPort) {
    super(
      `port ${wanted.port} on ${wanted.host} (${wanted.what}) is in use, by another dn or another program; choose a free one with ${wanted.flag}`,
    )
    this.name = 'PortInUseError'
  }
}

/**
 * Fails with PortInUseError when a wanted port is taken, before anything
 * is written (a master key, a database): a second `dn up` says which flag
 * to use instead of failing halfway. Port 0 (any free port) always fits.
 */
export async function assertPortsFree(
  wanted: readonly WantedPort[],
): Promise<void> {
  for (const w of wanted) {
    if (w.port === 0) continue
    await new Promise<void>((resolve, reject) => {
      const probe = createServer()
      probe.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' ? new PortInUseError(w) : err),
      )
      probe.listen({ host: w.host, port: w.port, exclusive: true }, () =>
        probe.close(() => resolve()),
      )
    })
  }
}
