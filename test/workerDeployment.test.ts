import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type DeploymentBed,
  openDeploymentBed,
} from './support/deploymentBed.js'
import { dialects } from './support/testService.js'

/**
 * A deployment's `dn worker`: every venue named by its URL variable, no
 * simulator anywhere. It must start from the variables alone, and say
 * what to set when one is missing.
 */
describe.each(dialects())('dn worker in a deployment (%s)', (dialect) => {
  let bed: DeploymentBed
  beforeAll(async () => {
    bed = await openDeploymentBed(dialect)
  }, 60_000)
  afterAll(() => bed?.close())

  const urls = () => bed.urls()
  const dn = (
    command: string[],
    id: string,
    env: Record<string, string | undefined>,
  ) => bed.dn(command, id, env)
  const worker = (id: string, env: Record<string, string | undefined>) =>
    dn(['worker'], id, env)

  test('with every venue URL it runs without a simulator', async () => {
    const w = worker(`deploy-${dialect}`, urls())
    try {
      for (let i = 0; i < 100; i++) {
        const ids = (await bed.svc.store.workers.list()).map((x) => x.id)
        if (ids.includes(`deploy-${dialect}`)) break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect((await bed.svc.store.workers.list()).map((x) => x.id)).toContain(
        `deploy-${dialect}`,
      )
      expect(w.err()).toMatch(/worker deploy-\S+ running/)
    } finally {
      w.child.kill('SIGTERM')
      await w.exit
    }
  }, 30_000)

  test('with a venue URL missing and no simulator it stops and says what to set', async () => {
    const w = worker(`partial-${dialect}`, { ...urls(), DN_ASTER_URL: '' })
    const code = await w.exit
    expect(code).not.toBe(0)
    expect(w.err()).toMatch(/cannot reach the simulated venues/)
    expect(w.err()).toMatch(/DN_ASTER_URL/)
  }, 30_000)

  test('dn serve with every venue URL answers from the venues, without a simulator', async () => {
    const s = dn(['serve', '--port', '0'], `serve-${dialect}`, urls())
    try {
      const api = await s.apiUrl()
      const health = await fetch(`${api}/health`)
      expect(await health.json()).toEqual({ ok: true })
      // the venues it names are the ones given, not fakes of its own
      const named = /dn: venue protocols: (.*)/.exec(s.err())?.[1] ?? ''
      for (const [v, url] of Object.entries(bed.venues.protocolUrls)) {
        expect(named.split(', ')).toContain(`${v} ${url}`)
      }
    } finally {
      await s.stop()
    }
  }, 30_000)

  test('a process with another master key than the database was set up with stops before reading anything', async () => {
    // the first process on the database recorded its key's fingerprint
    const first = dn(['serve', '--port', '0'], `key-first-${dialect}`, urls())
    await first.apiUrl()
    await first.stop()
    for (const command of [['worker'], ['serve', '--port', '0']]) {
      const other = dn(command, `key-other-${dialect}`, {
        ...urls(),
        DN_MASTER_KEY: '08'.repeat(32),
      })
      expect(await other.exit).not.toBe(0)
      expect(other.err()).toMatch(
        /DN_MASTER_KEY is not the key this database was set up with .*start with the original key/,
      )
    }
  }, 60_000)

  test('dn serve with a venue URL missing and no simulator says what to set', async () => {
    const s = dn(['serve', '--port', '0'], `serve-partial-${dialect}`, {
      ...urls(),
      DN_HL_URL: '',
    })
    expect(await s.exit).not.toBe(0)
    expect(s.err()).toMatch(/DN_HL_URL/)
  }, 30_000)
})
