import { describe, expect, test } from 'vitest'
import type { VenueId } from '../domain/venue.js'
import { RequestBudgetError, VenueUnavailableError } from '../errors/venue.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import type {
  ReadOptions,
  VenueAdapter,
  VenueCredential,
  VenueOrder,
  VenueOrderRequest,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { shareAccountReads } from './shareAccountReads.js'

const cred = (
  owner: string,
  accountIndex: string | null = null,
  venue: VenueId = 'hl',
): VenueCredential => ({
  owner,
  venue,
  accountIndex,
  credentialRef: null,
  secret: 's',
})

const ALICE = cred('0xAlice')

const position = (size: string): VenuePosition => ({
  market: 'BTC',
  size,
  entryPrice: '100',
  markPrice: '100',
  leverage: '2',
  marginMode: 'cross',
  liquidationPrice: null,
})

const ORDER_REQ: VenueOrderRequest = {
  market: 'BTC',
  side: 'long',
  size: '1',
  price: '100',
  timeInForce: 'ioc',
  reduceOnly: false,
  clientOrderId: 'c1',
}

const venueOrder = (filledBase: string): VenueOrder => ({
  clientOrderId: 'c1',
  venueOrderId: '1',
  state: filledBase === '0' ? 'open' : 'filled',
  size: '1',
  filledBase,
  averagePrice: filledBase === '0' ? null : '100',
  venueStatus: 'x',
  reason: null,
})

/**
 * A counting adapter: positions() answers after a tick with a size that
 * counts the reads, so a test can tell one read from the next.
 */
function countingAdapter(venue: VenueId = 'hl') {
  const calls = {
    positions: [] as {
      cred: VenueCredential
      options: ReadOptions | undefined
    }[],
    place: 0,
    cancel: 0,
    order: 0,
    funding: [] as (ReadOptions | undefined)[],
    rules: 0,
    quote: 0,
  }
  let orderAnswer: VenueOrder | null = null
  let failWrites = false
  const gates: (() => void)[] = []
  let gated = false
  const adapter: VenueAdapter = {
    venue,
    async rules(symbol) {
      calls.rules++
      return { venue, symbol } as unknown as MarketRules
    },
    async quote(symbol) {
      calls.quote++
      return { venue, symbol } as unknown as MarketQuote
    },
    async place(_c, order) {
      calls.place++
      if (failWrites) throw new Error('place failed')
      return { ...venueOrder('1'), clientOrderId: order.clientOrderId }
    },
    async cancel() {
      calls.cancel++
      if (failWrites) throw new Error('cancel failed')
    },
    async order() {
      calls.order++
      return orderAnswer
    },
    async positions(c, options) {
      calls.positions.push({ cred: c, options })
      const n = calls.positions.length
      if (gated) await new Promise<void>((res) => gates.push(res))
      else await Promise.resolve()
      return [position(String(n))]
    },
    async funding(_c, _m, _s, options) {
      calls.funding.push(options)
      return []
    },
  }
  return {
    adapter,
    calls,
    setOrderAnswer: (o: VenueOrder | null) => {
      orderAnswer = o
    },
    setFailWrites: (f: boolean) => {
      failWrites = f
    },
    /** positions() reads wait until `open()` */
    gate: () => {
      gated = true
    },
    open: () => {
      gated = false
      for (const g of gates.splice(0)) g()
    },
  }
}

function setup() {
  let t = 1_000_000
  const clock = { now: () => t }
  const fake = countingAdapter()
  const shared = shareAccountReads(
    { hl: fake.adapter } as Record<VenueId, VenueAdapter>,
    clock,
  )
  const hl = shared.hl
  return {
    ...fake,
    hl,
    advance: (ms: number) => {
      t += ms
    },
  }
}

describe('shareAccountReads', () => {
  test('behavior: a fresh read passes every snapshot, asks the adapter past its stream, and drops what was held', async () => {
    const s = setup()
    expect(await s.hl.positions(ALICE, { maxAgeMs: 60_000 })).toEqual([
      position('1'),
    ])
    expect(
      await s.hl.positions(ALICE, { fresh: true, priority: 'urgent' }),
    ).toEqual([position('2')])
    expect(s.calls.positions[1]?.options).toEqual({
      fresh: true,
      priority: 'urgent',
    })
    // the snapshot from before is not served any more: it may be stale
    expect(await s.hl.positions(ALICE, { maxAgeMs: 60_000 })).toEqual([
      position('3'),
    ])
  })

  test('default: many concurrent positions() of one account with maxAgeMs make one read', async () => {
    const s = setup()
    const all = await Promise.all(
      Array.from({ length: 100 }, () =>
        s.hl.positions(ALICE, { maxAgeMs: 1_000 }),
      ),
    )
    expect(s.calls.positions).toHaveLength(1)
    for (const p of all) expect(p).toEqual([position('1')])
    // later callers within maxAgeMs are served the snapshot
    s.advance(1_000)
    expect(await s.hl.positions(ALICE, { maxAgeMs: 1_000 })).toEqual([
      position('1'),
    ])
    expect(s.calls.positions).toHaveLength(1)
    // older than that: read again
    s.advance(1)
    expect(await s.hl.positions(ALICE, { maxAgeMs: 1_000 })).toEqual([
      position('2'),
    ])
    expect(s.calls.positions).toHaveLength(2)
  })

  test('behavior: concurrent positions() without maxAgeMs share the read in flight', async () => {
    const s = setup()
    await Promise.all([s.hl.positions(ALICE), s.hl.positions(ALICE)])
    expect(s.calls.positions).toHaveLength(1)
  })

  test('behavior: maxAgeMs 0 or omitted always reads once the last read is done', async () => {
    const s = setup()
    await s.hl.positions(ALICE, { maxAgeMs: 1_000 })
    s.advance(1)
    expect(await s.hl.positions(ALICE)).toEqual([position('2')])
    s.advance(1)
    expect(await s.hl.positions(ALICE, { maxAgeMs: 0 })).toEqual([
      position('3'),
    ])
    s.advance(1)
    expect(await s.hl.positions(ALICE, {})).toEqual([position('4')])
    expect(s.calls.positions).toHaveLength(4)
  })

  test('behavior: different accounts (owner or account index) read separately', async () => {
    const s = setup()
    const creds = [
      cred('0xAlice'),
      cred('0xBob'),
      cred('0xAlice', '7'),
      cred('0xAlice', '8'),
    ]
    await Promise.all(creds.map((c) => s.hl.positions(c, { maxAgeMs: 60_000 })))
    expect(s.calls.positions).toHaveLength(4)
    // each read was sent with its own credential
    expect(s.calls.positions.map((c) => c.cred)).toEqual(creds)
    await Promise.all(creds.map((c) => s.hl.positions(c, { maxAgeMs: 60_000 })))
    expect(s.calls.positions).toHaveLength(4)
  })

  test('behavior: the owner address is one account whatever its case', async () => {
    const s = setup()
    await s.hl.positions(cred('0xABCDEF'), { maxAgeMs: 60_000 })
    await s.hl.positions(cred('0xabcdef'), { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(1)
  })

  test('behavior: after a place the next read is fresh, also when it throws', async () => {
    const s = setup()
    const bob = cred('0xBob')
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    await s.hl.positions(bob, { maxAgeMs: 60_000 })
    expect(await s.hl.place(ALICE, ORDER_REQ)).toMatchObject({
      clientOrderId: 'c1',
    })
    expect(s.calls.place).toBe(1)
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(3)
    // Bob's snapshot is untouched
    await s.hl.positions(bob, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(3)
    s.setFailWrites(true)
    await expect(s.hl.place(ALICE, ORDER_REQ)).rejects.toThrow('place failed')
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(4)
  })

  test('behavior: cancel drops the account snapshot, also when it throws', async () => {
    const s = setup()
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    await s.hl.cancel(ALICE, 'BTC', 'c1')
    expect(s.calls.cancel).toBe(1)
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(2)
    s.setFailWrites(true)
    await expect(s.hl.cancel(ALICE, 'BTC', 'c1')).rejects.toThrow(
      'cancel failed',
    )
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(3)
  })

  test('behavior: an order() lookup with fills makes the next read fresh; none or unfilled keeps the snapshot', async () => {
    const s = setup()
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    s.setOrderAnswer(null)
    expect(await s.hl.order(ALICE, 'BTC', 'c1')).toBeNull()
    s.setOrderAnswer(venueOrder('0'))
    expect(await s.hl.order(ALICE, 'BTC', 'c1')).toMatchObject({
      filledBase: '0',
    })
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(1)
    s.setOrderAnswer(venueOrder('0.5'))
    expect(await s.hl.order(ALICE, 'BTC', 'c1')).toMatchObject({
      filledBase: '0.5',
    })
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(2)
    expect(s.calls.order).toBe(3)
  })

  test('behavior: a read in flight when our order fills is not served as fresh afterwards', async () => {
    const s = setup()
    s.gate()
    const before = s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    // the order is placed and filled while that read is on its way
    await s.hl.place(ALICE, ORDER_REQ)
    s.open()
    await before
    const after = await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(2)
    expect(after).toEqual([position('2')])
  })

  test('behavior: the priority passed to positions() reaches the adapter', async () => {
    const s = setup()
    await s.hl.positions(ALICE, { priority: 'urgent' })
    s.advance(1)
    await s.hl.positions(ALICE, { priority: 'history', maxAgeMs: 0 })
    s.advance(1)
    await s.hl.positions(ALICE)
    expect(s.calls.positions.map((c) => c.options?.priority)).toEqual([
      'urgent',
      'history',
      undefined,
    ])
  })

  test('behavior: funding, rules and quote pass straight through', async () => {
    const s = setup()
    await s.hl.funding(ALICE, 'BTC', '2024-01-01T00:00:00Z', {
      priority: 'history',
    })
    await s.hl.funding(ALICE, 'BTC', '2024-01-01T00:00:00Z')
    expect(s.calls.funding).toEqual([{ priority: 'history' }, undefined])
    expect(await s.hl.rules('BTC')).toEqual({ venue: 'hl', symbol: 'BTC' })
    expect(await s.hl.quote('ETH')).toEqual({ venue: 'hl', symbol: 'ETH' })
    await s.hl.quote('ETH')
    expect(s.calls.quote).toBe(2)
    expect(s.hl.venue).toBe('hl')
  })

  test('behavior: methods patched on the adapter after wrapping are used', async () => {
    const s = setup()
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    const seen: string[] = []
    a.positions = async () => {
      seen.push('positions')
      return [position('patched')]
    }
    a.place = async () => {
      seen.push('place')
      return venueOrder('0')
    }
    a.cancel = async () => {
      seen.push('cancel')
    }
    a.order = async () => {
      seen.push('order')
      return null
    }
    a.quote = async (symbol) => {
      seen.push('quote')
      return { venue: 'hl', symbol, mark: '1' } as unknown as MarketQuote
    }
    a.rules = async () => {
      seen.push('rules')
      return undefined
    }
    a.funding = async () => {
      seen.push('funding')
      return []
    }
    expect(await s.hl.positions(ALICE)).toEqual([position('patched')])
    await s.hl.place(ALICE, ORDER_REQ)
    await s.hl.cancel(ALICE, 'BTC', 'c1')
    await s.hl.order(ALICE, 'BTC', 'c1')
    await s.hl.quote('BTC')
    await s.hl.rules('BTC')
    await s.hl.funding(ALICE, 'BTC', '2024-01-01T00:00:00Z')
    expect(seen).toEqual([
      'positions',
      'place',
      'cancel',
      'order',
      'quote',
      'rules',
      'funding',
    ])
    expect(s.calls.positions).toHaveLength(0)
  })

  test('behavior: a failed positions() read is not cached', async () => {
    const s = setup()
    let fail = true
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    a.positions = async () => {
      if (fail) throw new Error('down')
      return [position('ok')]
    }
    await expect(s.hl.positions(ALICE, { maxAgeMs: 60_000 })).rejects.toThrow(
      'down',
    )
    fail = false
    expect(await s.hl.positions(ALICE, { maxAgeMs: 60_000 })).toEqual([
      position('ok'),
    ])
  })

  test('behavior: a read the budget holds back is answered with a snapshot within budgetFallbackMs, never one an order of unknown effect made stale', async () => {
    const s = setup()
    await s.hl.positions(ALICE)
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    const read = a.positions
    const refused = new RequestBudgetError('hl: routine budget spent')
    a.positions = async () => {
      throw refused
    }
    s.advance(20_000)
    // within the fallback: the last snapshot
    expect(await s.hl.positions(ALICE, { budgetFallbackMs: 20_000 })).toEqual([
      position('1'),
    ])
    // without one, or past it: the budget's refusal
    await expect(s.hl.positions(ALICE)).rejects.toBe(refused)
    s.advance(1)
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 20_000 }),
    ).rejects.toBe(refused)
    // any other failure is never covered
    a.positions = async () => {
      throw new VenueUnavailableError('down')
    }
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 60_000 }),
    ).rejects.toThrow('down')
    // our own order drops the snapshot: nothing to fall back on
    a.positions = read
    await s.hl.positions(ALICE)
    await s.hl.place(ALICE, {} as never)
    a.positions = async () => {
      throw refused
    }
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 60_000 }),
    ).rejects.toBe(refused)
  })

  test('behavior: within staleWhileReadMs a due read goes out and a snapshot answers when it is slow; past it, or after our order, the caller waits', async () => {
    const s = setup()
    await s.hl.positions(ALICE)
    s.gate()
    s.advance(25_000)
    const opts = { maxAgeMs: 20_000, staleWhileReadMs: 30_000 }
    // due (older than maxAgeMs), its read held up: served the snapshot
    // after a moment, while the read is out
    expect(await s.hl.positions(ALICE, opts)).toEqual([position('1')])
    expect(await s.hl.positions(ALICE, opts)).toEqual([position('1')])
    expect(s.calls.positions).toHaveLength(2)
    s.open()
    await new Promise((r) => setTimeout(r, 20))
    expect(await s.hl.positions(ALICE, opts)).toEqual([position('2')])
    // not due: the snapshot, no read
    expect(s.calls.positions).toHaveLength(2)
    // a read that answers at once is what the caller gets
    s.advance(25_000)
    expect(await s.hl.positions(ALICE, opts)).toEqual([position('3')])
    // a read that fails in the background is not seen while the snapshot
    // serves; past staleWhileReadMs the caller waits and sees it
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    a.positions = async () => {
      throw new VenueUnavailableError('down')
    }
    s.advance(25_000)
    expect(await s.hl.positions(ALICE, opts)).toEqual([position('3')])
    s.advance(5_001)
    await expect(s.hl.positions(ALICE, opts)).rejects.toThrow('down')
    // after our own order the snapshot is dropped: the caller waits
    a.positions = async () => [position('fresh')]
    await s.hl.positions(ALICE)
    await s.hl.place(ALICE, {} as never)
    a.positions = async () => {
      throw new VenueUnavailableError('down again')
    }
    await expect(s.hl.positions(ALICE, opts)).rejects.toThrow('down again')
  })

  /** A budget that refuses every positions() read from now on. */
  function refuseReads(s: ReturnType<typeof setup>) {
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    const read = a.positions
    a.positions = async () => {
      throw new RequestBudgetError('hl: routine budget spent')
    }
    return () => {
      a.positions = read
    }
  }

  test('behavior: our fill is applied to the snapshot, which serves while the budget holds the venue read back', async () => {
    const s = setup()
    expect(await s.hl.positions(ALICE)).toEqual([position('1')])
    // long 1 more at 100: size 2, entry unchanged, liquidation unknown
    s.advance(1)
    await s.hl.place(ALICE, ORDER_REQ)
    const restore = refuseReads(s)
    const served = await s.hl.positions(ALICE, { budgetFallbackMs: 60_000 })
    expect(served).toEqual([{ ...position('2'), liquidationPrice: null }])
    // the refused read was tried: the fill asks for a venue read first
    expect(s.calls.positions).toHaveLength(1)
    restore()
    // a read after the fill replaces the local view, and ends the rush
    expect(await s.hl.positions(ALICE, { maxAgeMs: 60_000 })).toEqual([
      position('2'),
    ])
    await s.hl.positions(ALICE, { maxAgeMs: 60_000 })
    expect(s.calls.positions).toHaveLength(2)
  })

  test('behavior: a fill is not applied to a snapshot the venue answered after the order went out (it may show the fill already): the snapshot is dropped', async () => {
    const s = setup()
    expect(await s.hl.positions(ALICE)).toEqual([position('1')])
    // the order goes out; its answer is slow
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    const place = a.place
    let answer = () => {}
    a.place = (c, o) =>
      new Promise((resolve) => {
        answer = () => resolve(place(c, o))
      })
    s.advance(1)
    const placing = s.hl.place(ALICE, ORDER_REQ)
    // meanwhile a read answers: the venue's net with the fill (size 2)
    s.advance(1)
    expect(await s.hl.positions(ALICE)).toEqual([position('2')])
    answer()
    await placing
    // applied again, the fill would show 3; the snapshot is gone instead,
    // and a read the budget holds back has nothing stale to serve
    const restore = refuseReads(s)
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 60_000 }),
    ).rejects.toBeInstanceOf(RequestBudgetError)
    restore()
    expect(s.calls.place).toBe(1)
  })

  test("behavior: lookups repeating an order's fills apply only what is new", async () => {
    const s = setup()
    await s.hl.positions(ALICE)
    s.setOrderAnswer({ ...venueOrder('0'), state: 'open' })
    const sell = { ...ORDER_REQ, side: 'short' as const, clientOrderId: 'c1' }
    const a = s.adapter as {
      -readonly [K in keyof VenueAdapter]: VenueAdapter[K]
    }
    a.place = async () => ({ ...venueOrder('0'), state: 'open' })
    s.advance(1)
    await s.hl.place(ALICE, sell)
    const restore = refuseReads(s)
    const partial = {
      ...venueOrder('0.25'),
      state: 'partially_filled' as const,
    }
    s.setOrderAnswer(partial)
    await s.hl.order(ALICE, 'BTC', 'c1')
    await s.hl.order(ALICE, 'BTC', 'c1')
    // a shrinking position keeps its last liquidation price
    expect(await s.hl.positions(ALICE, { budgetFallbackMs: 60_000 })).toEqual([
      position('0.75'),
    ])
    s.setOrderAnswer(venueOrder('0.5'))
    await s.hl.order(ALICE, 'BTC', 'c1')
    await s.hl.order(ALICE, 'BTC', 'c1')
    expect(await s.hl.positions(ALICE, { budgetFallbackMs: 60_000 })).toEqual([
      position('0.5'),
    ])
    restore()
  })

  test('behavior: a fill we cannot place in the snapshot (an order placed elsewhere, a market it lacks) drops it', async () => {
    const s = setup()
    await s.hl.positions(ALICE)
    // an order this process did not place: its side is unknown
    s.setOrderAnswer({ ...venueOrder('1'), clientOrderId: 'elsewhere' })
    await s.hl.order(ALICE, 'BTC', 'elsewhere')
    let restore = refuseReads(s)
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 60_000 }),
    ).rejects.toBeInstanceOf(RequestBudgetError)
    restore()
    await s.hl.positions(ALICE)
    // a fill opening a market the snapshot does not hold: the venue tells
    // its leverage and margin mode
    await s.hl.place(ALICE, {
      ...ORDER_REQ,
      market: 'ETH',
      clientOrderId: 'e1',
    })
    restore = refuseReads(s)
    await expect(
      s.hl.positions(ALICE, { budgetFallbackMs: 60_000 }),
    ).rejects.toBeInstanceOf(RequestBudgetError)
    restore()
  })

  test('behavior: each venue is wrapped on its own', async () => {
    const hl = countingAdapter('hl')
    const aster = countingAdapter('aster')
    const shared = shareAccountReads(
      { hl: hl.adapter, aster: aster.adapter } as Record<VenueId, VenueAdapter>,
      { now: () => 0 },
    )
    expect(Object.keys(shared).sort()).toEqual(['aster', 'hl'])
    expect(shared.aster.venue).toBe('aster')
    await shared.hl.positions(ALICE, { maxAgeMs: 1_000 })
    await shared.aster.positions(cred('0xAlice', null, 'aster'), {
      maxAgeMs: 1_000,
    })
    expect(hl.calls.positions).toHaveLength(1)
    expect(aster.calls.positions).toHaveLength(1)
  })
})
