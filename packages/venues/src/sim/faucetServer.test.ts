import { afterAll, beforeAll, expect, test } from 'vitest'
import { type FaucetServer, startFaucetServer } from './faucetServer.js'
import { createSimVenues } from './simVenues.js'

const OWNER = '0xAbCdEf0000000000000000000000000000000001'
const venues = createSimVenues({ clock: { now: () => 0 } })
let server: FaucetServer

beforeAll(async () => {
  server = await startFaucetServer({ venues, port: 0 })
})
afterAll(() => server.close())

const post = (body: string, type = 'application/json', path = '/faucet') =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  })

test('default: POST /faucet creates the account and is stable', async () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  const res = await post(JSON.stringify({ venue: 'lighter', owner: OWNER }))
  expect(res.status).toBe(200)
  const body = await res.json()
  expect(body).toEqual({
    venue: 'lighter',
    owner: OWNER.toLowerCase(),
    accountIndex: 1,
  })
  const again = await post(
    JSON.stringify({ venue: 'lighter', owner: OWNER, collateralUsd: 250.5 }),
  )
  expect(await again.json()).toMatchObject({ accountIndex: 1 })
  expect(venues.exchanges.lighter.account(OWNER).collateralUsd).toBe('100250.5')
})

test.each([
  ['bad JSON', '{"venue":'],
  ['not an object', '[1]'],
  ['unknown venue', JSON.stringify({ venue: 'binance', owner: OWNER })],
  ['short owner', JSON.stringify({ venue: 'hl', owner: '0xabc' })],
  [
    'collateral 0',
    JSON.stringify({ venue: 'hl', owner: OWNER, collateralUsd: 0 }),
  ],
  [
    'collateral 2e9',
    JSON.stringify({ venue: 'hl', owner: OWNER, collateralUsd: 2e9 }),
  ],
  [
    'collateral text',
    JSON.stringify({ venue: 'hl', owner: OWNER, collateralUsd: '5' }),
  ],
  ['extra field', JSON.stringify({ venue: 'hl', owner: OWNER, admin: true })],
])('error: 400 invalid_request for %s', async (_name, body) => {
  const res = await post(body)
  expect(res.status).toBe(400)
  expect(await res.json()).toMatchObject({ code: 'invalid_request' })
})

test('error: 404, 405, 415', async () => {
  const notFound = await post('{}', 'application/json', '/nope')
  expect(notFound.status).toBe(404)
  expect(await notFound.json()).toMatchObject({ code: 'not_found' })
  const get = await fetch(`${server.url}/faucet`)
  expect(get.status).toBe(405)
  expect(get.headers.get('allow')).toBe('POST')
  expect(await get.json()).toMatchObject({ code: 'method_not_allowed' })
  const text = await post('venue=hl', 'text/plain')
  expect(text.status).toBe(415)
  expect(await text.json()).toMatchObject({ code: 'unsupported_media_type' })
})

test('GET /venues publishes where the protocol fakes listen and how often they settle funding', async () => {
  const published = await startFaucetServer({
    venues,
    port: 0,
    protocolUrls: { hl: 'http://127.0.0.1:1234' },
    fundingIntervalMs: { hl: 60_000 },
  })
  try {
    const res = await fetch(`${published.url}/venues`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      protocolUrls: { hl: 'http://127.0.0.1:1234' },
      fundingIntervalMs: { hl: 60_000 },
    })
    const post = await fetch(`${published.url}/venues`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET')
  } finally {
    await published.close()
  }
  const none = await fetch(`${server.url}/venues`)
  expect(await none.json()).toEqual({ protocolUrls: {}, fundingIntervalMs: {} })
})

test('error: binds loopback only', async () => {
  await expect(
    startFaucetServer({ venues, host: '0.0.0.0', port: 0 }),
  ).rejects.toThrow(RangeError)
})
