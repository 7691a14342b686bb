import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type DeploymentBed,
  openDeploymentBed,
} from './support/deploymentBed.js'
import type { SpawnedDn } from './support/spawnDn.js'
import { createOwnerWithKey, dialects } from './support/testService.js'

const RUNS = 10
const BURST = 400
const LIMIT = 120
/** one read route per family: each family has its own 120 a minute */
const FAMILY_ROUTES = {
  perp: '/v1/perp/orders',
  strategy: '/v1/delta-neutral/tasks',
} as const

/**
 * The per-key limit shared through the database (`DN_SHARED_RATE_LIMIT`)
 * by several `dn serve` processes: 400 requests at once on one key, spread
 * over the servers, are admitted exactly 120 times per family.
 */
describe.each(dialects())(
  'the shared rate limit across dn serve processes (%s)',
  (dialect) => {
    let bed: DeploymentBed
    const servers: SpawnedDn[] = []
    const apis: string[] = []

    beforeAll(async () => {
      bed = await openDeploymentBed(dialect)
      const env = {
        ...bed.urls(),
        DN_SHARED_RATE_LIMIT: 'true',
        // keys belong to an environment: the test service's
        DN_ENV: 'test',
        DN_VENUE_STREAMS: 'false',
      }
      for (let i = 0; i < 3; i++) {
        servers.push(bed.dn(['serve', '--port', '0'], `rl-${i}`, env))
      }
      for (const s of servers) apis.push(await s.apiUrl())
    }, 60_000)
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()))
      await bed?.close()
    })

    /** BURST requests per family at once on a new key, round robin over `n` servers. */
    async function burst(n: number) {
      const { apiKey } = await createOwnerWithKey(bed.svc)
      const statuses = {
        perp: new Map<number, number>(),
        strategy: new Map<number, number>(),
      }
      await Promise.all(
        (Object.keys(FAMILY_ROUTES) as (keyof typeof FAMILY_ROUTES)[]).flatMap(
          (family) =>
            Array.from({ length: BURST }, async (_, i) => {
              const res = await fetch(
                `${apis[i % n]}${FAMILY_ROUTES[family]}`,
                {
                  headers: { authorization: `Bearer ${apiKey}` },
                },
              )
              await res.arrayBuffer()
              const m = statuses[family]
              m.set(res.status, (m.get(res.status) ?? 0) + 1)
            }),
        ),
      )
      return statuses
    }

    for (const n of [2, 3]) {
      test(`${n} servers: ${RUNS} runs of ${BURST} concurrent requests on one key admit exactly ${LIMIT} per family`, async () => {
        for (let run = 0; run < RUNS; run++) {
          const got = await burst(n)
          for (const family of ['perp', 'strategy'] as const) {
            expect(
              Object.fromEntries(got[family]),
              `run ${run}, ${family}`,
            ).toEqual({ 200: LIMIT, 429: BURST - LIMIT })
          }
        }
      }, 180_000)
    }
  },
)
