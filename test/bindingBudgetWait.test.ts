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
 * published limits, no fault injected). Each binding used to spend 82 of
 * dn's 540 interactive weight a minute on Hyperliquid (a `userRole`
 * preflight, 60, and an `extraAgents` confirmation, 20): the seventh owner
 * was answered 503. A funded owner's preflight now reads its clearinghouse
 * state (2) and an approval answered `ok` is not read back, so eight
 * owners bind without one 503. Only the store-independent budget is under
 * test: SQLite alone.
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

  test('every owner binds, and no request is answered 503', async () => {
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
    expect(refusals).toEqual([])
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
