import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  UncertainSubmissionError,
  VenueAccountNotFoundError,
  type VenueCredential,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type FaucetServer, startFaucetServer } from './faucetServer.js'
import { createSimRpcAdapter } from './simRpcAdapter.js'
import { createSimVenues, type SimVenues } from './simVenues.js'

const owner = `0x${'ab'.repeat(20)}`
const cred = (
  venue: 'hl' | 'lighter',
  accountIndex: string | null = null,
): VenueCredential => ({
  owner,
  venue,
  accountIndex,
  credentialRef: null,
  secret: null,
})
const order = (clientOrderId: string) => ({
  market: 'BTC',
  side: 'long' as const,
  size: '0.001',
  price: '102000',
  timeInForce: 'ioc' as const,
  reduceOnly: false,
  clientOrderId,
})

describe('createSimRpcAdapter', () => {
  let venues: SimVenues
  let server: FaucetServer
  beforeAll(async () => {
    let now = Date.parse('2026-11-23T00:00:00Z')
    venues = createSimVenues({ seed: 3, clock: { now: () => now++ } })
    server = await startFaucetServer({ venues, port: 0 })
  })
  afterAll(() => server.close())

  test('default: the same answers as the in-process adapter', async () => {
    const hl = createSimRpcAdapter({ baseUrl: server.url, venue: 'hl' })
    expect(await hl.rules('BTC')).toEqual(await venues.adapters.hl.rules('BTC'))
    expect(await hl.rules('NOPE')).toBeUndefined()
    await expect(hl.place(cred('hl'), order('0x01'))).rejects.toBeInstanceOf(
      VenueAccountNotFoundError,
    )
    venues.faucet('hl', owner)
    const placed = await hl.place(cred('hl'), order('0x02'))
    expect(placed.state).toBe('filled')
    expect(await hl.order(cred('hl'), 'BTC', '0x02')).toEqual(
      await venues.adapters.hl.order(cred('hl'), 'BTC', '0x02'),
    )
    expect(await hl.order(cred('hl'), 'BTC', '0x99')).toBeNull()
    expect((await hl.positions(cred('hl')))[0]?.size).toBe('0.001')
  })

  test('behavior: venue errors keep their class across the wire', async () => {
    const hl = createSimRpcAdapter({ baseUrl: server.url, venue: 'hl' })
    await expect(hl.place(cred('hl'), order('0x02'))).rejects.toBeInstanceOf(
      VenueRejectedError,
    )
    venues.exchanges.hl.setFaults({ timeoutAfterAcceptRate: 1 })
    await expect(hl.place(cred('hl'), order('0x03'))).rejects.toBeInstanceOf(
      UncertainSubmissionError,
    )
    venues.exchanges.hl.setFaults({ outage: true })
    await expect(hl.quote('BTC')).rejects.toBeInstanceOf(VenueUnavailableError)
    venues.exchanges.hl.setFaults({})
    expect((await hl.order(cred('hl'), 'BTC', '0x03'))?.state).toBe('filled')
  })

  test('error: nothing listening is VenueUnavailableError, even for place', async () => {
    const probe = createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const { port } = probe.address() as AddressInfo
    await new Promise((r) => probe.close(r))
    const down = createSimRpcAdapter({
      baseUrl: `http://127.0.0.1:${port}`,
      venue: 'lighter',
    })
    await expect(
      down.place(cred('lighter', '1'), order('0x04')),
    ).rejects.toBeInstanceOf(VenueUnavailableError)
  })
})
