import { type ChildProcess, spawn } from 'node:child_process'
import type { TestService } from './testService.js'

/** The master key every test service is composed with, as `dn` reads it. */
export const TEST_MASTER_HEX = '07'.repeat(32)
/** a port nothing listens on: no simulator in a deployment */
const NO_SIM = 'http://127.0.0.1:9'

export interface SpawnedDn {
  readonly child: ChildProcess
  /** resolves with the exit code */
  readonly exit: Promise<number | null>
  /** what it wrote to stderr so far */
  err(): string
  /** the API's URL once `dn serve`/`dn up` has said it (throws after 10 s) */
  apiUrl(): Promise<string>
  /** SIGTERM, then waits for the exit */
  stop(): Promise<void>
}

/**
 * A `dn` command (the bundled CLI) on the test service's database, with no
 * simulator unless `command` names one (`--sim-url`); `env` adds variables
 * (venue URLs, flags).
 */
export function spawnDn(
  cli: string,
  svc: Pick<TestService, 'dbFile' | 'pgSchema'>,
  dialect: 'sqlite' | 'postgres',
  command: readonly string[],
  id: string,
  env: Record<string, string | undefined>,
): SpawnedDn {
  const db =
    dialect === 'postgres'
      ? (process.env.DN_TEST_PG_URL as string)
      : `sqlite:${svc.dbFile}`
  const child = spawn(
    process.execPath,
    [
      cli,
      ...command,
      '--db',
      db,
      // the command may name a simulator of its own
      ...(command.includes('--sim-url') ? [] : ['--sim-url', NO_SIM]),
    ],
    {
      env: {
        ...process.env,
        DN_MASTER_KEY: TEST_MASTER_HEX,
        DN_WORKER_ID: id,
        ...(svc.pgSchema ? { DN_DB_SCHEMA: svc.pgSchema } : {}),
        ...env,
      },
    },
  )
  let err = ''
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString()
  })
  const exit = new Promise<number | null>((r) =>
    child.once('exit', (code) => r(code)),
  )
  return {
    child,
    exit,
    err: () => err,
    async apiUrl() {
      for (let i = 0; i < 100; i++) {
        const api = /api (http:\/\/[^\s,]+)/.exec(err)?.[1]
        if (api) return api
        if (child.exitCode !== null) break
        await new Promise((r) => setTimeout(r, 100))
      }
      throw new Error(`dn ${command.join(' ')} did not start: ${err}`)
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exit
    },
  }
}
