import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createDnMetrics } from './createDnMetrics.js'
import { metricsAuthorized } from './metricsAuthorized.js'
import {
  type RunningMetricsServer,
  startMetricsServer,
} from './startMetricsServer.js'

describe('metricsAuthorized', () => {
  test('default: open without a token', () => {
    expect(metricsAuthorized(undefined, undefined)).toBe(true)
    expect(metricsAuthorized(undefined, '')).toBe(true)
  })
  test('behavior: with a token, only its bearer', () => {
    expect(metricsAuthorized('Bearer t0k', 't0k')).toBe(true)
    expect(metricsAuthorized('Bearer nope', 't0k')).toBe(false)
    expect(metricsAuthorized('t0k', 't0k')).toBe(false)
    expect(metricsAuthorized(undefined, 't0k')).toBe(false)
  })
})

describe('startMetricsServer', () => {
  const metrics = createDnMetrics()
  let open: RunningMetricsServer
  let closed: RunningMetricsServer
  beforeAll(async () => {
    open = await startMetricsServer({ metrics, port: 0 })
    closed = await startMetricsServer({ metrics, port: 0, token: 't0k' })
  })
  afterAll(async () => {
    await open?.close()
    await closed?.close()
  })

  test('default: GET /metrics on 127.0.0.1 in the text format; counters move', async () => {
    expect(open.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/)
    metrics.request('/v1/perp/orders', 'POST', 202, 12)
    metrics.observe({
      type: 'venueSubmit',
      kind: 'order',
      id: 'o-1',
      venue: 'hl',
      acceptToVenueMs: 40,
    })
    const res = await fetch(open.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    const text = await res.text()
    expect(text).toContain(
      'dn_http_requests_total{route="/v1/perp/orders",method="POST",status="202"} 1',
    )
    expect(text).toContain(
      'dn_accept_to_venue_seconds_count{kind="order",venue="hl"} 1',
    )
    expect(text).toContain('process_cpu_seconds_total')
    const other = await fetch(open.url.replace('/metrics', '/other'))
    expect(other.status).toBe(404)
  })

  test('behavior: DN_METRICS_TOKEN asks for its bearer', async () => {
    expect((await fetch(closed.url)).status).toBe(401)
    const ok = await fetch(closed.url, {
      headers: { authorization: 'Bearer t0k' },
    })
    expect(ok.status).toBe(200)
  })
})
