import { spawn } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  createSimVenues,
  type FaucetServer,
  startFaucetServer,
} from '@dn/venues/sim'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import {
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'

const MASTER_HEX = '07'.repeat(32)

function run(cli: string, args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [cli, ...args], {
    env: { ...process.env, DN_MASTER_KEY: MASTER_HEX, ...env },
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const exit = new Promise<number | null>((r) =>
    child.once('exit', (code) => r(code)),
  )
  return { child, exit, out: () => out }
}

describe.each(dialects())('dn worker fence (%s)', (dialect) => {
  let cli: string
  let svc: TestService
  let sim: FaucetServer
  beforeAll(async () => {
    cli = await bundleCli()
    svc = await startTestService({ dialect })
    sim = await startFaucetServer({ venues: createSimVenues(), port: 0 })
  }, 60_000)
  afterAll(async () => {
    await sim?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  test('running workers stop at their next heartbeat and claim nothing more', async () => {
    const db =
      dialect === 'postgres'
        ? (process.env.DN_TEST_PG_URL as string)
        : `sqlite:${svc.dbFile}`
    const env = svc.pgSchema ? { DN_DB_SCHEMA: svc.pgSchema } : {}
    const workers = [0, 1].map((i) =>
      run(cli, ['worker', '--db', db, '--sim-url', sim.url], {
        ...env,
        DN_WORKER_ID: `fence-${i}`,
      }),
    )
    // wait until both registered a heartbeat
    for (let i = 0; i < 100; i++) {
      if ((await svc.store.workers.list()).length === 2) break
      await new Promise((r) => setTimeout(r, 100))
    }
    expect((await svc.store.workers.list()).map((w) => w.id).sort()).toEqual([
      'fence-0',
      'fence-1',
    ])
    const fence = run(cli, ['worker', 'fence', '--db', db, '--json'], env)
    expect(await fence.exit).toBe(0)
    expect(JSON.parse(fence.out())).toMatchObject({ fenced: 2 })
    const codes = await Promise.all(workers.map((w) => w.exit))
    expect(codes).toEqual([3, 3])
    for (const w of await svc.store.workers.list())
      expect(w.fencedAt).not.toBeNull()
  }, 60_000)
})
