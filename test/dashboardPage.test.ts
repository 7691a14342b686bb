import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { launchChromium, requireChromium } from './support/chromium.js'
import { startDnUp } from './support/dnUpProcess.js'
import {
  call,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'
import { startWorkerBed, type WorkerBed } from './support/workerHarness.js'

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))

describe('GET /: the dashboard page and its assets', () => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startTestService()
  })
  afterAll(() => svc?.close())

  it.each([
    ['/', 'text/html; charset=utf-8', 'src="assets/dashboard.js"'],
    ['/assets/dashboard.js', 'text/javascript; charset=utf-8', 'dn.apiKey'],
    ['/assets/dashboard.css', 'text/css; charset=utf-8', '.chart'],
  ])(
    '%s: 200 with a strict CSP and an ETag; 304 when it matches',
    async (path, type, marker) => {
      const res = await call(svc, 'GET', path)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe(type)
      expect(res.headers.get('cache-control')).toBe('no-cache')
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      const csp = res.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'none'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("connect-src 'self'")
      expect(csp).toContain("style-src 'self'")
      expect(csp).not.toMatch(/https?:|\*|unsafe-/)
      expect(res.text).toContain(marker)
      const etag = res.headers.get('etag')
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
      const again = await call(svc, 'GET', path, {
        headers: { 'if-none-match': `W/"other", ${etag}` },
      })
      expect(again.status).toBe(304)
      expect(again.text).toBe('')
      expect(again.headers.get('etag')).toBe(etag)
    },
  )

  it('the page stays out of the OpenAPI contract; POST is 405', async () => {
    const doc = await call(svc, 'GET', '/openapi.json')
    expect(
      Object.keys(doc.body.paths).filter(
        (p) => p === '/' || p.startsWith('/assets'),
      ),
    ).toEqual([])
    const post = await call(svc, 'POST', '/', { body: {} })
    expect(post.status).toBe(405)
    const miss = await call(svc, 'GET', '/assets/nope.js')
    expect(miss.status).toBe(404)
    expect(miss.body.code).toBe('route_not_found')
  })

  it('`dn up` from the CLI bundled elsewhere builds and serves them too', async () => {
    // the script is bundled from packages/server/web, found through the
    // @dn/server package however the CLI itself was bundled
    const dir = mkdtempSync(join(tmpdir(), 'dn-dash-'))
    const up = await startDnUp(await bundleCli(), join(dir, 'data'))
    try {
      for (const path of [
        '/',
        '/assets/dashboard.js',
        '/assets/dashboard.css',
      ]) {
        const res = await fetch(`${up.api}${path}`)
        expect(res.status, `${path} ${up.err()}`).toBe(200)
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(500)
      }
    } finally {
      await up.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})

describe('the dashboard in Chromium, against the service and simulated venues', () => {
  const SAMPLE_MS = 5_000
  let bed: WorkerBed
  let o: TestOwner
  let browser: Browser | undefined
  let running: string
  let closed: string
  let unknown: string

  beforeAll(async () => {
    requireChromium()
    bed = await startWorkerBed({ dialect: 'sqlite', taskSampleMs: SAMPLE_MS })
    o = await bed.owner()
    // a task that runs, sampled over four slots
    running = await bed.createTask(o)
    await bed.drain()
    expect((await bed.getTask(o, running)).status).toBe('running')
    // a task that ran and closed
    closed = await bed.createTask(o, {
      longVenue: 'hl',
      longMarket: 'ETH',
      shortVenue: 'aster',
      shortMarket: 'ETHUSDT',
      sizeUsd: 1_000,
      // opens whatever the pair's funding (hl ETH may pay more than aster)
      autoClose: false,
    })
    await bed.drain()
    expect((await bed.getTask(o, closed)).status).toBe('running')
    for (let i = 0; i < 4; i++) await bed.advance(SAMPLE_MS)
    expect((await bed.taskAction(o, closed, 'close')).status).toBe(202)
    await bed.drain()
    expect((await bed.getTask(o, closed)).status).toBe('closed')
    // an order whose venue answer was lost: unknown until reconciled,
    // and no round runs after it
    bed.venues.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 1 })
    const placed = await call(bed.svc, 'POST', '/v1/perp/orders', {
      key: o.apiKey,
      body: {
        venue: 'hl',
        market: 'SOL',
        side: 'short',
        orderType: 'market',
        sizeBase: 0.5,
      },
    })
    expect(placed.status, placed.text).toBe(202)
    unknown = placed.body.orderId
    await bed.drain(1)
    bed.venues.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 0 })
    const order = await call(bed.svc, 'GET', `/v1/perp/orders/${unknown}`, {
      key: o.apiKey,
    })
    expect(order.body.order.status).toBe('unknown')
    browser = await launchChromium()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await bed?.close()
  })

  /** A page on the dashboard that records anything loaded from elsewhere. */
  async function open(): Promise<{ page: Page; problems: string[] }> {
    const page = await (browser as Browser).newPage({
      viewport: { width: 1280, height: 900 },
    })
    const origin = new URL(bed.svc.url).origin
    const problems: string[] = []
    page.on('request', (r) => {
      if (new URL(r.url()).origin !== origin)
        problems.push(`elsewhere: ${r.url()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    page.on('console', (m) => {
      // the refused key's 401 is logged by the browser; it is expected
      if (m.type() === 'error' && !m.text().includes('401')) {
        problems.push(`console error: ${m.text()}`)
      }
    })
    await page.goto(`${bed.svc.url}/`)
    return { page, problems }
  }

  it('a wrong key shows what to do, and the form again', async () => {
    const { page, problems } = await open()
    await page.fill(
      '#api-key',
      'dn_test_00000000-0000-4000-8000-000000000000.wrong',
    )
    await page.click('#key-form button[type=submit]')
    const message = page.locator('#message')
    await message.waitFor({ timeout: 15_000 })
    const text = await message.textContent()
    expect(text).toContain('This API key was refused')
    expect(text).toContain('401')
    expect(text).toContain('dn keys create')
    expect(await page.locator('#api-key').isVisible()).toBe(true)
    expect(
      await page.evaluate('sessionStorage.getItem("dn.apiKey")'),
    ).toBeNull()
    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-wrong-key.png') })
    expect(problems).toEqual([])
    await page.close()
  }, 60_000)

  it('shows the running task with its chart, the closed task with its PnL, and the unknown order with its runbook', async () => {
    const { page, problems } = await open()
    await page.fill('#api-key', o.apiKey)
    await page.click('#key-form button[type=submit]')

    const card = page.locator(`#active-tasks article[data-task="${running}"]`)
    await card.waitFor({ timeout: 20_000 })
    expect(await card.getAttribute('data-status')).toBe('running')
    const cardText = (await card.textContent()) ?? ''
    expect(cardText).toContain('long aster BTCUSDT / short lighter BTC')
    expect(cardText).toContain('Funding APY now')
    expect(cardText).toContain('to liquidation')
    expect(cardText).toContain('Closes on:')
    expect(cardText).toContain('a leg liquidated')

    // the funding and PnL chart, drawn from at least two samples
    const chart = card.locator('figure.chart').first()
    await chart.locator('polyline').first().waitFor({ timeout: 20_000 })
    expect(
      Number(await chart.getAttribute('data-samples')),
    ).toBeGreaterThanOrEqual(2)
    const points = await chart
      .locator('polyline[data-series="PnL total"]')
      .getAttribute('points')
    expect((points ?? '').trim().split(/\s+/).length).toBeGreaterThanOrEqual(2)

    // the closed task with its PnL as the API reports it
    const t = await bed.getTask(o, closed)
    const row = page.locator(`#ended-tasks tr[data-task="${closed}"]`)
    await row.waitFor()
    expect(await row.getAttribute('data-status')).toBe('closed')
    const pnl = Math.abs(Number(t.pnl.totalUsd)).toFixed(2)
    expect(await row.locator('td.pnl').textContent()).toContain(pnl)

    // the unknown order, flagged with how to resolve it
    const alert = page.locator('#unknown-orders')
    expect(await alert.isVisible()).toBe(true)
    const alertText = (await alert.textContent()) ?? ''
    expect(alertText).toContain('1 order in state unknown')
    expect(alertText).toContain(unknown)
    expect(alertText).toContain('dn orders resolve <orderId>')
    expect(alertText).toContain('dn worker fence')
    expect(alertText).toContain('/v1/perp/orders/{orderId}/resolve')
    expect(
      await page.locator(`#orders tr.flag[data-order="${unknown}"]`).count(),
    ).toBe(1)

    // live: the age of what is shown counts up
    await expect
      .poll(() => page.locator('#updated').textContent(), { timeout: 10_000 })
      .toMatch(/^updated [1-9]\d* s ago$/)

    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({
      path: join(ARTIFACTS, 'dashboard.png'),
      fullPage: true,
    })
    await card.screenshot({ path: join(ARTIFACTS, 'dashboard-task.png') })

    // forgetting the key leaves the tab without it
    await page.click('#forget-key')
    await page.locator('#key-form').waitFor()
    expect(
      await page.evaluate('sessionStorage.getItem("dn.apiKey")'),
    ).toBeNull()
    expect(problems).toEqual([])
    await page.close()
  }, 90_000)
})
