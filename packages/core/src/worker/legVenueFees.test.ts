import { describe, expect, test, vi } from 'vitest'
import type { LegOrder, TaskOperation } from '../domain/taskEngineState.js'
import { VenueUnavailableError } from '../errors/venue.js'
import type { VenueAdapter } from '../ports/venueAdapter.js'
import { withLegVenueFees } from './legVenueFees.js'
import type { LegIo } from './taskLegOrders.js'

const leg = (over: Partial<LegOrder> = {}): LegOrder => ({
  clientOrderId: '0x01',
  side: 'long',
  size: '1',
  price: '100',
  reduceOnly: false,
  state: 'done',
  filledBase: '1',
  averagePrice: '100',
  failed: null,
  venueOrderId: '42',
  ...over,
})
const op = (legs: TaskOperation['legs']): TaskOperation => ({
  kind: 'open',
  seq: 1,
  startedAt: '2026-01-01T00:00:00.000Z',
  legs,
})
const io = (orderFees?: VenueAdapter['orderFees']): LegIo =>
  ({
    adapter: { venue: 'hl', ...(orderFees ? { orderFees } : {}) },
    cred: { owner: '0xo' },
    market: 'ETH',
    pairedWithLighter: false,
  }) as unknown as LegIo

describe('withLegVenueFees', () => {
  test("default: a filled leg's fee is read once from its venue, from before the operation began", async () => {
    const read = vi.fn(async () => '0.045')
    const got = await withLegVenueFees(op({ long: leg() }), { long: io(read) })
    expect(got.legs.long?.venueFeeUsd).toBe('0.045')
    expect(read).toHaveBeenCalledWith({ owner: '0xo' }, 'ETH', {
      clientOrderId: '0x01',
      venueOrderId: '42',
      filledBase: '1',
      since: Date.parse('2026-01-01T00:00:00.000Z') - 60_000,
    })
  })

  test('a fee already known, a leg not done or nothing filled: no read', async () => {
    const read = vi.fn(async () => '1')
    const legs = {
      long: leg({ venueFeeUsd: '0.01' }),
      short: leg({ state: 'sending' }),
    }
    const got = await withLegVenueFees(op(legs), {
      long: io(read),
      short: io(read),
    })
    expect(got.legs).toEqual(legs)
    const none = await withLegVenueFees(
      op({ long: leg({ filledBase: '0' }) }),
      {
        long: io(read),
      },
    )
    expect(none.legs.long?.venueFeeUsd).toBeUndefined()
    expect(read).not.toHaveBeenCalled()
  })

  test('a venue that cannot say, or cannot be read now: the fee is unknown, the task goes on', async () => {
    const down = vi.fn(async () => {
      throw new VenueUnavailableError('hl down')
    })
    const failed = await withLegVenueFees(op({ long: leg() }), {
      long: io(down),
    })
    expect(failed.legs.long?.venueFeeUsd).toBeNull()
    const mute = await withLegVenueFees(op({ long: leg() }), { long: io() })
    expect(mute.legs.long?.venueFeeUsd).toBeNull()
  })

  test('a read still queued after 2 s: unknown, the operation completes without it', async () => {
    vi.useFakeTimers()
    try {
      const queued = vi.fn(() => new Promise<string>(() => {}))
      const done = withLegVenueFees(op({ long: leg() }), { long: io(queued) })
      await vi.advanceTimersByTimeAsync(2_000)
      expect((await done).legs.long?.venueFeeUsd).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})
