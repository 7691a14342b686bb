import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { silentLogger } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createRequestListener } from '../createRequestListener.js'
import { createDnMetrics } from '../metrics/createDnMetrics.js'
import type { ServerDeps } from '../serverDeps.js'
import { METRICS_PAGE } from './metricsPage.js'

/** The API's router with only the /metrics page, over real HTTP. */
async function serve(deps: Partial<ServerDeps>) {
  const full = { logger: silentLogger, ...deps } as ServerDeps
  const page = METRICS_PAGE
  const server = createServer(
    createRequestListener(full, [
      {
        method: page.spec.method,
        pattern: page.spec.path,
        handler: page.handler({ deps: full }),
      },
    ]),
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { server, url: `http://127.0.0.1:${port}/metrics` }
}

describe('GET /metrics on the API', () => {
  const servers: Server[] = []
  let open: string
  let guarded: string
  let none: string
  beforeAll(async () => {
    const metrics = createDnMetrics()
    const a = await serve({ metrics })
    const b = await serve({ metrics, metricsToken: 's3' })
    const c = await serve({})
    servers.push(a.server, b.server, c.server)
    open = a.url
    guarded = b.url
    none = c.url
  })
  afterAll(async () => {
    await Promise.all(
      servers.map((s) => new Promise((r) => s.close(() => r(null)))),
    )
  })

  test('default: open, and the scrape itself is counted by route template', async () => {
    await fetch(open)
    const res = await fetch(open)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(await res.text()).toContain(
      'dn_http_requests_total{route="/metrics",method="GET",status="200"} 1',
    )
  })

  test('behavior: DN_METRICS_TOKEN asks for its bearer (401 with the error body)', async () => {
    const denied = await fetch(guarded)
    expect(denied.status).toBe(401)
    expect(await denied.json()).toMatchObject({ code: 'unauthorized' })
    const ok = await fetch(guarded, { headers: { authorization: 'Bearer s3' } })
    expect(ok.status).toBe(200)
  })

  test('error: a server composed without metrics answers 404', async () => {
    expect((await fetch(none)).status).toBe(404)
  })
})
