import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { launchChromium, requireChromium } from './support/chromium.js'
import { startDnUp } from './support/dnUpProcess.js'
import {
  call,
  startTestService,
  type TestService,
} from './support/testService.js'

const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url))
const ASSET = '/docs/assets/redoc.standalone.js'

describe('GET /docs: the API reference page', () => {
  let svc: TestService
  let browser: Browser | undefined

  beforeAll(async () => {
    svc = await startTestService()
  })
  afterAll(async () => {
    await browser?.close()
    await svc?.close()
  })

  it('200 HTML with a strict CSP and an ETag; 304 when it matches', async () => {
    const res = await call(svc, 'GET', '/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/https?:|\*|unsafe-eval/)
    expect(res.text).toContain('<redoc spec-url="openapi.json">')
    expect(res.text).toContain('src="docs/assets/redoc.standalone.js"')

    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/)
    const again = await call(svc, 'GET', '/docs', {
      headers: { 'if-none-match': `W/"other", ${etag}` },
    })
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.get('etag')).toBe(etag)
    expect(again.headers.get('content-length')).toBeNull()
  })

  it('serves the renderer from node_modules; unknown assets are 404 JSON', async () => {
    const res = await fetch(`${svc.url}${ASSET}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe(
      'text/javascript; charset=utf-8',
    )
    const bytes = Buffer.from(await res.arrayBuffer())
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length)
    expect(bytes.length).toBeGreaterThan(500_000)
    expect(bytes.toString('utf8', 0, 2_000)).toContain('Redoc')
    const cached = await fetch(`${svc.url}${ASSET}`, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    })
    expect(cached.status).toBe(304)

    for (const path of ['/docs/assets/x.js', '/docs/assets', '/docs/x']) {
      const miss = await call(svc, 'GET', path)
      expect(miss.status, path).toBe(404)
      expect(miss.headers.get('content-type')).toMatch(/^application\/json/)
      expect(miss.body).toMatchObject({
        code: 'route_not_found',
        error: expect.any(String),
      })
    }
    const post = await call(svc, 'POST', '/docs', { body: {} })
    expect(post.status).toBe(405)
    expect(post.body.code).toBe('method_not_allowed')
  })

  it('the pages stay out of the OpenAPI contract', async () => {
    const doc = await call(svc, 'GET', '/openapi.json')
    expect(
      Object.keys(doc.body.paths).filter((p) => p.startsWith('/docs')),
    ).toEqual([])
  })

  it('renders every operation in Chromium, loading nothing from elsewhere', async () => {
    requireChromium()
    browser = await launchChromium()
    const page = await browser.newPage({
      viewport: { width: 1280, height: 900 },
    })
    const origin = new URL(svc.url).origin
    const requests: string[] = []
    const problems: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    page.on('requestfailed', (r) => problems.push(`failed: ${r.url()}`))
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`)
    })
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    // Redoc's own warnings (how it merges some schemas) are not failures
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`)
    })

    await page.goto(`${svc.url}/docs`)
    // each operation is a heading once Redoc has read /openapi.json
    await page
      .getByRole('heading', { name: 'Create a scoped API key (wallet-signed)' })
      .waitFor({ timeout: 45_000 })
    await expect
      .poll(() => page.getByText('/v1/delta-neutral/tasks').count())
      .toBeGreaterThan(0)
    const title = await page.locator('h1').first().textContent()
    expect(title).toContain('dn paired-position and perpetual-order service')

    mkdirSync(ARTIFACTS, { recursive: true })
    await page.screenshot({ path: join(ARTIFACTS, 'api-docs.png') })

    // blob: URLs (Redoc's search worker) carry the page's origin too
    const elsewhere = requests.filter((u) => new URL(u).origin !== origin)
    expect(elsewhere).toEqual([])
    expect(requests).toEqual(
      expect.arrayContaining([
        `${origin}/docs`,
        `${origin}${ASSET}`,
        `${origin}/openapi.json`,
      ]),
    )
    expect(problems).toEqual([])
  }, 60_000)

  it('`dn up` from the CLI bundled elsewhere finds the renderer too', async () => {
    // bundleCli inlines the server's sources far from packages/server: the
    // bundle must still be resolved from node_modules
    const dir = mkdtempSync(join(tmpdir(), 'dn-docs-'))
    const up = await startDnUp(await bundleCli(), join(dir, 'data'))
    try {
      const page = await fetch(`${up.api}/docs`)
      expect(page.status).toBe(200)
      const asset = await fetch(`${up.api}${ASSET}`)
      expect(asset.status, up.err()).toBe(200)
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(500_000)
    } finally {
      await up.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
