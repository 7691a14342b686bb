import {
  createRequestBudget,
  type VenueAdapter,
  type VenueCredential,
  VenueUnavailableError,
} from '@dn/core'
import { describe, expect, test } from 'vitest'
import { orderWithVenueTime, readVenueClock } from './venueClock.js'
import { createVenueHttp, type VenueRequest } from './venueHttp.js'

const READ: VenueRequest = {
  method: 'GET',
  path: '/order',
  kind: 'read',
  priority: 'urgent',
  charges: [],
}

/** A venue whose answers are dated by `date(path)` (none when null). */
function venue(date: (path: string) => string | null, status = 200) {
  const fetchFn = (async (input: string | URL | Request) => {
    const path = new URL(String(input)).pathname
    const d = date(path)
    // yields first, as a network does: concurrent calls interleave
    await new Promise((r) => setTimeout(r, 1))
    return new Response(status === 200 ? '{}' : '{"code":-2013}', {
      status,
      headers: d === null ? {} : { date: d },
    })
  }) as typeof fetch
  return createVenueHttp(
    {
      venue: 'testvenue',
      rateLimited: () => null,
      read: (_req, a) => {
        if (a.status !== 200) throw new VenueUnavailableError('not found')
        return a.json
      },
    },
    {
      baseUrl: 'http://venue.test',
      fetchFn,
      timeout: 1_000,
      budget: createRequestBudget({ name: 'test', limits: [] }),
    },
  )
}

const at = (iso: string) => Date.parse(iso)

describe('readVenueClock', () => {
  test('default: the Date of the answer, as the start of its second', async () => {
    const send = venue(() => 'Tue, 01 Jan 2030 12:00:05 GMT')
    const { reading } = await readVenueClock(() => send(READ))
    expect(reading?.venueAtLeast).toBe(at('2030-01-01T12:00:05Z'))
    expect(reading?.receivedAt).toBeGreaterThanOrEqual(reading?.sentAt ?? 0)
  })

  test("behavior: a cache's copy counts from when it was made (Date less Age)", async () => {
    const send = createVenueHttp(
      {
        venue: 'testvenue',
        rateLimited: () => null,
        read: (_req, a) => a.json,
      },
      {
        baseUrl: 'http://venue.test',
        fetchFn: (async () =>
          new Response('{}', {
            headers: { date: 'Tue, 01 Jan 2030 12:00:05 GMT', age: '3' },
          })) as unknown as typeof fetch,
        timeout: 1_000,
        budget: createRequestBudget({ name: 'test', limits: [] }),
      },
    )
    const { reading } = await readVenueClock(() => send(READ))
    expect(reading?.venueAtLeast).toBe(at('2030-01-01T12:00:02Z'))
  })

  test('behavior: several reads: the earliest answer bounds them all', async () => {
    const send = venue((p) =>
      p === '/a'
        ? 'Tue, 01 Jan 2030 12:00:09 GMT'
        : 'Tue, 01 Jan 2030 12:00:07 GMT',
    )
    const { reading } = await readVenueClock(async () => {
      await send({ ...READ, path: '/a' })
      await send({ ...READ, path: '/b' })
    })
    expect(reading?.venueAtLeast).toBe(at('2030-01-01T12:00:07Z'))
  })

  test('behavior: an answer without a Date, or none at all, tells nothing', async () => {
    const dated = venue(() => 'Tue, 01 Jan 2030 12:00:07 GMT')
    const undated = venue(() => null)
    const mixed = await readVenueClock(async () => {
      await dated(READ)
      await undated(READ)
    })
    expect(mixed.reading).toBeNull()
    expect((await readVenueClock(async () => 1)).reading).toBeNull()
    const garbled = venue(() => 'yesterday')
    expect((await readVenueClock(() => garbled(READ))).reading).toBeNull()
  })

  test('behavior: an answer read as an error (not found) is dated too', async () => {
    const send = venue(() => 'Tue, 01 Jan 2030 12:00:05 GMT', 400)
    const { value, reading } = await readVenueClock(() =>
      send(READ).catch(() => null),
    )
    expect(value).toBeNull()
    expect(reading?.venueAtLeast).toBe(at('2030-01-01T12:00:05Z'))
  })

  test("behavior: concurrent calls each see only their own requests' answers", async () => {
    const send = venue((p) =>
      p === '/early'
        ? 'Tue, 01 Jan 2030 12:00:01 GMT'
        : 'Tue, 01 Jan 2030 12:00:09 GMT',
    )
    const [early, late] = await Promise.all([
      readVenueClock(() => send({ ...READ, path: '/early' })),
      readVenueClock(() => send({ ...READ, path: '/late' })),
    ])
    expect(early.reading?.venueAtLeast).toBe(at('2030-01-01T12:00:01Z'))
    expect(late.reading?.venueAtLeast).toBe(at('2030-01-01T12:00:09Z'))
  })

  test('behavior: a nested call counts for the call around it too', async () => {
    const send = venue((p) =>
      p === '/inner'
        ? 'Tue, 01 Jan 2030 12:00:01 GMT'
        : 'Tue, 01 Jan 2030 12:00:09 GMT',
    )
    const outer = await readVenueClock(async () => {
      await send({ ...READ, path: '/outer' })
      return readVenueClock(() => send({ ...READ, path: '/inner' }))
    })
    expect(outer.value.reading?.venueAtLeast).toBe(at('2030-01-01T12:00:01Z'))
    expect(outer.reading?.venueAtLeast).toBe(at('2030-01-01T12:00:01Z'))
  })
})

describe('orderWithVenueTime', () => {
  const cred: VenueCredential = {
    owner: '0xabc',
    venue: 'hl',
    accountIndex: null,
    credentialRef: null,
    secret: null,
  }

  test('default: the lookup, with the venue time of its answer', async () => {
    const send = venue(() => 'Tue, 01 Jan 2030 12:00:05 GMT')
    const order: VenueAdapter['order'] = async () => {
      await send(READ)
      return null
    }
    expect(await orderWithVenueTime(order)(cred, 'ETH', '0x01')).toEqual({
      order: null,
      venueTimeAtLeast: at('2030-01-01T12:00:05Z'),
    })
  })

  test('behavior: a lookup that read nothing has no venue time', async () => {
    const order: VenueAdapter['order'] = async () => null
    expect(await orderWithVenueTime(order)(cred, 'ETH', '0x01')).toEqual({
      order: null,
      venueTimeAtLeast: null,
    })
  })
})
