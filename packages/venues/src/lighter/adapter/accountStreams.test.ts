import type { VenueAdapter, VenueCredential, VenuePosition } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fillLighterBed } from '../../sim/testing/fillLighterBed.js'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../../sim/testing/lighterTestBed.js'
import { generateLighterKeyPair } from '../signer/lighterKeys.js'
import {
  createLighterAccountStreams,
  type LighterAccountStreams,
} from '../stream/createLighterAccountStreams.js'
import { lighterWsUrl } from '../stream/createLighterMarketStream.js'
import { createLighterAdapter } from './createLighterAdapter.js'

const until = async (ok: () => boolean, ms = 3_000) => {
  const end = Date.now() + ms
  while (!ok()) {
    if (Date.now() > end) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 10))
  }
}

/**
 * The Lighter adapter's user streams against the protocol fake: a
 * streamed account's positions come from `account_all` with no request,
 * a dropped socket sends the sweep back to REST until it recovers, and
 * only the accounts named last are subscribed.
 */
describe('Lighter account streams: positions from account_all', () => {
  let bed: LighterTestBed
  let adapter: VenueAdapter
  let streams: LighterAccountStreams
  /** every REST path the adapter requested */
  const paths: string[] = []
  /** a second account of the same venue, with its own API key */
  let other: VenueCredential

  const streamed = (...creds: VenueCredential[]) =>
    creds.map((cred) => ({
      owner: cred.owner,
      credential: async () => cred,
    }))

  /** moves the adapter's clock ahead of the fake's */
  let skew = 0

  beforeAll(async () => {
    bed = await openLighterTestBed('lighter', 31, undefined, {
      accountStreamIntervalMs: 50,
    })
    const owner = `0x${'ab'.repeat(20)}`
    const { accountIndex } = bed.exchange.faucet(owner, 50_000)
    const keys = generateLighterKeyPair()
    bed.fake.seedApiKey(accountIndex, 3, keys.publicKey)
    other = {
      owner,
      venue: 'lighter',
      accountIndex: String(accountIndex),
      credentialRef: `${accountIndex}:3`,
      secret: keys.privateKey,
    }
    adapter = createLighterAdapter({
      venue: 'lighter',
      clock: { now: () => Date.now() + skew },
      baseUrl: bed.fake.url,
      tier: 'builder',
      fetchFn: (async (url: string, init?: RequestInit) => {
        paths.push(new URL(url).pathname.replace('/api/v1/', ''))
        return fetch(url, init)
      }) as typeof fetch,
      accountStreams: ({ authToken }) => {
        streams = createLighterAccountStreams({
          url: lighterWsUrl(bed.fake.url),
          authToken,
          minDelayMs: 20,
          maxDelayMs: 100,
          pingMs: 200,
          staleMs: 1_000,
        })
        return streams
      },
    })
    fillLighterBed(bed, 'short', '0.02')
    await adapter.rules('ETH') // the market list, read once
  })
  afterAll(async () => {
    streams?.close()
    await bed?.fake.close()
  })

  test('a streamed account’s positions: no request, a fill within a second', async () => {
    adapter.streamAccounts?.(streamed(bed.cred))
    await until(() => adapter.accountStreamed?.(bed.owner) === true)
    // the first read of a streamed account is still REST (the 2 min net)
    paths.length = 0
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    expect(paths).toEqual(['account'])
    paths.length = 0
    const before = await adapter.positions(bed.cred, { maxAgeMs: 0 })
    expect(before).toMatchObject([{ market: 'ETH', size: '-0.02' }])
    fillLighterBed(bed, 'short', '0.01')
    const filledAt = Date.now()
    let size = before[0]?.size
    while (size === '-0.02' && Date.now() - filledAt < 1_000) {
      await new Promise((r) => setTimeout(r, 20))
      size = (await adapter.positions(bed.cred, { maxAgeMs: 0 }))[0]?.size
    }
    expect(size).toBe('-0.03')
    expect(paths).toEqual([])
    // what the stream served is what REST answers (marks move apart)
    const pick = ({
      market,
      size,
      entryPrice,
      leverage,
      marginMode,
    }: VenuePosition) => ({
      market,
      size,
      entryPrice,
      leverage,
      marginMode,
    })
    const fromStream = await adapter.positions(bed.cred, { maxAgeMs: 0 })
    adapter.streamAccounts?.([])
    const fromRest = await adapter.positions(bed.cred, { maxAgeMs: 0 })
    expect(paths).toEqual(['account'])
    expect(fromStream.map(pick)).toEqual(fromRest.map(pick))
  })

  test('a streamed account is read by REST again every 2 minutes (a cross liquidation price the venue may not push)', async () => {
    adapter.streamAccounts?.(streamed(bed.cred))
    await until(() => adapter.accountStreamed?.(bed.owner) === true)
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    paths.length = 0
    skew += 119_000
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    expect(paths).toEqual([])
    skew += 1_000
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    // (the market list, older than its age by now, is read again too)
    expect(paths.filter((p) => p === 'account')).toEqual(['account'])
  })

  test('a dropped socket: not streamed, then streamed again after the reconnect', async () => {
    adapter.streamAccounts?.(streamed(bed.cred))
    await until(() => adapter.accountStreamed?.(bed.owner) === true)
    expect(bed.fake.dropStreams()).toBeGreaterThan(0)
    await until(() => adapter.accountStreamed?.(bed.owner) === false, 1_000)
    // while it is down the sweep reads REST
    paths.length = 0
    await adapter.positions(bed.cred)
    expect(paths).toEqual(['account'])
    await until(() => adapter.accountStreamed?.(bed.owner) === true)
    expect(bed.fake.streamedAccounts()).toEqual([bed.accountIndex])
    paths.length = 0
    await adapter.positions(bed.cred, { maxAgeMs: 0 })
    expect(paths).toEqual([])
  })

  test('accounts dropped from streamAccounts are unsubscribed', async () => {
    adapter.streamAccounts?.(streamed(bed.cred, other))
    await until(
      () =>
        adapter.accountStreamed?.(bed.owner) === true &&
        adapter.accountStreamed?.(other.owner) === true,
    )
    expect(bed.fake.streamedAccounts()).toEqual(
      [bed.accountIndex, Number(other.accountIndex)].sort((a, b) => a - b),
    )
    adapter.streamAccounts?.(streamed(other))
    expect(adapter.accountStreamed?.(bed.owner)).toBe(false)
    await until(
      () => bed.fake.streamedAccounts().join() === String(other.accountIndex),
    )
    expect(adapter.accountStreamed?.(other.owner)).toBe(true)
  })

  test('an account not streamed still reads by REST', async () => {
    adapter.streamAccounts?.(streamed(bed.cred))
    await until(() => adapter.accountStreamed?.(bed.owner) === true)
    expect(adapter.accountStreamed?.(other.owner)).toBe(false)
    paths.length = 0
    expect(await adapter.positions(other)).toEqual([])
    expect(paths).toEqual(['account'])
  })
})
