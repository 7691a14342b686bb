import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { type ComposedVenues, composeVenues } from '@dn/cli'
import { createSimVenues } from '@dn/venues'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import { bundleCli } from './support/bundleCli.js'
import { spawnDn } from './support/spawnDn.js'
import {
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'

/**
 * A deployment's `dn worker`: every venue named by its URL variable, no
 * simulator anywhere. It must start from the variables alone, and say
 * what to set when one is missing.
 */
describe.each(dialects())('dn worker in a deployment (%s)', (dialect) => {
  let cli: string
  let svc: TestService
  let venues: ComposedVenues
  beforeAll(async () => {
    cli = await bundleCli()
    svc = await startTestService({ dialect })
    venues = await composeVenues(
      createSimVenues(),
      {},
      { hlMainnet: true, asterTestnet: false, config: FEE_CONFIG },
    )
  }, 60_000)
  afterAll(async () => {
    await venues?.close()
    await svc?.close()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  function worker(id: string, urls: Record<string, string | undefined>) {
    return dn(['worker'], id, urls)
  }

  function dn(
    command: string[],
    id: string,
    urls: Record<string, string | undefined>,
  ) {
    return spawnDn(cli, svc, dialect, command, id, urls)
  }

  const urls = () => ({
    DN_HL_URL: venues.protocolUrls.hl,
    DN_LIGHTER_URL: venues.protocolUrls.lighter,
    DN_LIGHTER_MAINNET_URL: venues.protocolUrls['lighter-mainnet'],
    DN_ASTER_URL: venues.protocolUrls.aster,
  })

  test('with every venue URL it runs without a simulator', async () => {
    const w = worker(`deploy-${dialect}`, urls())
    try {
      for (let i = 0; i < 100; i++) {
        const ids = (await svc.store.workers.list()).map((x) => x.id)
        if (ids.includes(`deploy-${dialect}`)) break
        await new Promise((r) => setTimeout(r, 100))
      }
      expect((await svc.store.workers.list()).map((x) => x.id)).toContain(
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
      for (const [v, url] of Object.entries(venues.protocolUrls)) {
        expect(s.err()).toContain(`${v} protocol ${url}`)
      }
    } finally {
      await s.stop()
    }
  }, 30_000)

  test('dn serve with a venue URL missing and no simulator says what to set', async () => {
    const s = dn(['serve', '--port', '0'], `serve-partial-${dialect}`, {
      ...urls(),
      DN_HL_URL: '',
    })
    expect(await s.exit).not.toBe(0)
    expect(s.err()).toMatch(/DN_HL_URL/)
  }, 30_000)
})
