import { createDnMetrics } from '@dn/server'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  createOwnerWithKey,
  startTestService,
  type TestOwner,
  type TestService,
} from './support/testService.js'

/**
 * /metrics of the API over real HTTP after traffic: requests by route
 * template and status, and the service's own 429s by route family.
 */
describe('/metrics after API traffic', () => {
  let svc: TestService
  let owner: TestOwner
  beforeAll(async () => {
    svc = await startTestService({ rateLimit: 2, metrics: createDnMetrics() })
    owner = await createOwnerWithKey(svc)
  })
  afterAll(async () => {
    await svc?.close()
  })

  test('requests and 429s are counted by route template, status and family', async () => {
    const get = () =>
      fetch(`${svc.url}/v1/perp/orders`, {
        headers: { authorization: `Bearer ${owner.apiKey}` },
      })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await get()).status)
    expect(statuses).toEqual([200, 200, 429])
    const text = await (await fetch(`${svc.url}/metrics`)).text()
    expect(text).toContain(
      'dn_http_requests_total{route="/v1/perp/orders",method="GET",status="200"} 2',
    )
    expect(text).toContain(
      'dn_http_requests_total{route="/v1/perp/orders",method="GET",status="429"} 1',
    )
    expect(text).toContain(
      'dn_rate_limited_total{source="service",scope="perp"} 1',
    )
    expect(text).toMatch(
      /dn_http_request_duration_seconds_count\{route="\/v1\/perp\/orders",method="GET"\} 3/,
    )
    // the store's queues, read at the scrape
    expect(text).toContain('dn_work_queue_due{kind="order"} 0')
  })
})
