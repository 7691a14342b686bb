import { type ChildProcess, spawn } from 'node:child_process'
import { freePort } from './freePort.js'

/** A spawned `dn up`, started or not. */
export interface SpawnedUp {
  readonly child: ChildProcess
  /** resolves with the exit code */
  readonly exit: Promise<number | null>
  /** what it wrote to stderr so far */
  err(): string
}

export interface DnUpProcess extends SpawnedUp {
  readonly api: string
  readonly sim: string
  /** SIGTERM, then waits for the exit code */
  stop(): Promise<number | null>
}

interface UpOptions {
  /** @default a free port */
  readonly port?: number
  /** @default a free port */
  readonly simPort?: number
  /** more flags, e.g. `--funding-interval 10s` */
  readonly extra?: readonly string[]
}

/** `dn up` (the bundled CLI) on loopback ports and a data folder. */
export function spawnDnUp(
  cli: string,
  data: string,
  port: number,
  simPort: number,
  extra: readonly string[] = [],
): SpawnedUp {
  const child = spawn(
    process.execPath,
    [
      cli,
      'up',
      '--port',
      String(port),
      '--sim-port',
      String(simPort),
      '--data',
      data,
      ...extra,
    ],
    {
      env: { ...process.env, DN_MASTER_KEY: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exit = new Promise<number | null>((r) =>
    child.once('exit', (code) => r(code)),
  )
  return { child, exit, err: () => err }
}

/**
 * `dn up` as a user starts it; resolves once it said it is up and
 * `/health` answers (throws, killing it, after 20 s). Ports it chose
 * itself are chosen again when another process took one between the
 * choice and the listen (files run in parallel).
 */
export async function startDnUp(
  cli: string,
  data: string,
  o: UpOptions = {},
): Promise<DnUpProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDnUpOnce(cli, data, o)
    } catch (err) {
      const chosen = o.port === undefined || o.simPort === undefined
      const taken = String(err).includes('EADDRINUSE')
      if (!chosen || !taken || attempt === 3) throw err
    }
  }
}

async function startDnUpOnce(
  cli: string,
  data: string,
  o: UpOptions,
): Promise<DnUpProcess> {
  const port = o.port ?? (await freePort())
  const simPort = o.simPort ?? (await freePort())
  const api = `http://127.0.0.1:${port}`
  const sim = `http://127.0.0.1:${simPort}`
  const up = spawnDnUp(cli, data, port, simPort, o.extra)
  for (let i = 0; i < 200; i++) {
    const ok =
      /Ctrl-C stops/.test(up.err()) &&
      (await fetch(`${api}/health`).then(
        (r) => r.ok,
        () => false,
      ))
    if (ok)
      return {
        ...up,
        api,
        sim,
        async stop() {
          if (up.child.exitCode === null) up.child.kill('SIGTERM')
          return up.exit
        },
      }
    if (up.child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 100))
  }
  up.child.kill('SIGKILL')
  await up.exit
  throw new Error(`dn up did not start: ${up.err()}`)
}
