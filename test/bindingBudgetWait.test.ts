import { type BindingTarget, createDnClient } from '@dn/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'

const MASTER = Buffer.alloc(32, 12)
const OWNERS = 8

/** A venue-budget 503 as it reached the caller. */
interface Refusal {
  readonly body: unknown
  readonly retryAfter: string | null
}

/**
 * Binding eight owners one after another under `dn up`'s composition (every
 * venue on its real protocol against its fake, the fakes enforcing the
 * published limits, no fault injected). Each binding's Hyperliquid account
 * preflight (`userRole`, weight 60) and completion (weight 22) spend
 * dn's share of Hyperliquid's per-IP weight: six owners fill it for the
 * next minute. The seventh prepare used to be refused at once (503
 * `venue_account_check_unavailable`, no Retry-After), and the client's
 * three quick retries were refused too; now the 503 says when the budget
 * has room (Retry-After), the client waits that long, and every owner
 * binds. Only the store-independent budget is under test: SQLite alone.
 */
describe('binding eight owners back to back (issue 31)', () => {
  let bed: ProtocolService
  beforeAll(async () => {
    bed = await startProtocolService({
      dialect: 'sqlite',
      seed: 31,
      masterKey: MASTER,
      config: FEE_CONFIG,
      workerId: 'bind-eight',
    })
  })
  afterAll(() => bed?.close())

  test('every owner binds; a budget 503 carries Retry-After and its {error, code} body', async () => {
    const refusals: Refusal[] = []
    const fetchFn: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      if (res.status === 503) {
        refusals.push({
          body: await res.clone().json(),
          retryAfter: res.headers.get('retry-after'),
        })
      }
      return res
    }
    const client = createDnClient({ baseUrl: bed.svc.url, fetchFn })
    const bound: string[] = []
    for (let i = 0; i < OWNERS; i++) {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      const targets: BindingTarget[] = [
        { venue: 'hl' },
        { venue: 'aster' },
        ...(['lighter', 'lighter-mainnet'] as const).map((venue) => ({
          venue,
          accountIndex: bed.sim.faucet(venue, owner).accountIndex,
        })),
      ]
      bed.sim.faucet('hl', owner)
      bed.sim.faucet('aster', owner)
      const batch = await client.bindVenues(wallet, targets, {
        intervalMs: 25,
        timeoutMs: 120_000,
      })
      bound.push(batch.status)
    }
    expect(bound).toEqual(Array(OWNERS).fill('bound'))
    // the seventh prepare found Hyperliquid's budget full for a minute
    expect(refusals.length).toBeGreaterThan(0)
    for (const r of refusals) {
      expect(r.body).toEqual({
        code: 'venue_account_check_unavailable',
        error: expect.stringMatching(/retry later/),
      })
      expect(Number(r.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(63)
    }
    // dn kept under the venues' limits: no fake refused a request
    const refused = Object.entries(bed.venues.rateLimitUsage()).flatMap(
      ([venue, buckets]) =>
        (buckets ?? [])
          .filter((b) => b.refused > 0)
          .map((b) => `${venue} ${b.limit}: ${b.refused}`),
    )
    expect(refused).toEqual([])
  }, 240_000)
})
