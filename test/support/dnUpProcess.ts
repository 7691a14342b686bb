import { type ChildProcess, spawn } from 'node:child_process'
import { freePort } from './freePort.js'

export interface DnUpProcess {
  readonly child: ChildProcess
  readonly api: string
  readonly sim: string
  err(): string
  /** SIGTERM, then waits for the exit code */
  stop(): Promise<number | null>
}

/**
 * `dn up` (the bundled CLI) on free loopback ports and a data folder, as a
 * user starts it; resolves once `/health` answers.
 */
export async function startDnUp(
  cli: string,
  data: string,
  extra: readonly string[] = [],
): Promise<DnUpProcess> {
  const [port, simPort] = [await freePort(), await freePort()]
  const api = `http://127.0.0.1:${port}`
  const sim = `http://127.0.0.1:${simPort}`
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
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`${api}/health`).then(
      (r) => r.ok,
      () => false,
    )
    if (ok)
      return {
        child,
        api,
        sim,
        err: () => err,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM')
          return exit
        },
      }
    if (child.exitCode !== null) break
    await new Promise((r) => setTimeout(r, 100))
  }
  child.kill('SIGKILL')
  throw new Error(`dn up did not start: ${err}`)
}
