import { randomBytes } from 'node:crypto'
import {
  dec,
  type RequestPriority,
  roundPrice,
  UncertainSubmissionError,
  type VenueAdapter,
  type VenueCredential,
  VenueUnavailableError,
} from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { venueStyle } from '../sim/venueStyle.js'

/** What one adapter under test brings to the shared suite. */
interface VenueAdapterBed {
  readonly adapter: VenueAdapter
  /** a funded, authorized account */
  readonly cred: VenueCredential
  /** a listed market with room for small orders */
  readonly market: string
  /** makes the venue accept the next orders but lose the answer */
  loseAnswers(on: boolean): void
  /** how many venue orders exist for a client order id */
  placedCount(clientOrderId: string): number
  /**
   * the priority of each request the adapter's request budget was asked
   * for, in order; absent where the adapter keeps no budget
   */
  readonly budgetAsked?: RequestPriority[] | undefined
  close(): Promise<void>
}

const cloid = () => `0x${randomBytes(16).toString('hex')}`

/**
 * One suite for every VenueAdapter: paper, simulated RPC and the real
 * protocol adapters against their fakes all answer the port the same way.
 */
export function runVenueAdapterContract(
  name: string,
  open: () => Promise<VenueAdapterBed>,
): void {
  describe(`VenueAdapter contract: ${name}`, () => {
    let bed: VenueAdapterBed
    beforeAll(async () => {
      bed = await open()
    })
    afterAll(() => bed?.close())

    async function priced(side: 'long' | 'short', away: number) {
      const rules = await bed.adapter.rules(bed.market)
      if (!rules) throw new Error(`${bed.market} not listed`)
      const mark = Number((await bed.adapter.quote(bed.market)).mark)
      const price = roundPrice(
        rules,
        mark * away,
        side === 'long' ? 'up' : 'down',
      ).toFixed()
      const size = rules.sizeStep
      const minUsd = Math.max(11, Number(rules.minNotionalUsd))
      // enough base for the minimum notional at the order's own price
      const units = Math.ceil(
        minUsd / Math.min(mark, Number(price)) / Number(size),
      )
      const qty = (
        Number(size) *
        Math.max(units, Math.ceil(Number(rules.minBase) / Number(size)))
      ).toFixed(8)
      return { price, size: String(Number(qty)) }
    }

    test('rules and quote describe a listed market, and nothing else', async () => {
      const rules = await bed.adapter.rules(bed.market)
      expect(rules).toMatchObject({
        venue: bed.adapter.venue,
        symbol: bed.market,
      })
      expect(Number(rules?.tickSize)).toBeGreaterThan(0)
      expect(Number(rules?.sizeStep)).toBeGreaterThan(0)
      expect(await bed.adapter.rules('NOT-A-MARKET')).toBeUndefined()
      const q = await bed.adapter.quote(bed.market)
      expect(Number(q.bid)).toBeLessThanOrEqual(Number(q.ask))
      expect(Number(q.mark)).toBeGreaterThan(0)
    })

    test('symbols lists the market, and each symbol has rules', async () => {
      const symbols = (await bed.adapter.symbols?.()) ?? []
      expect(symbols).toContain(bed.market)
      expect(symbols).not.toContain('NOT-A-MARKET')
      for (const symbol of symbols.slice(0, 5)) {
        expect(await bed.adapter.rules(symbol), symbol).toBeDefined()
      }
    })

    /** A long IOC through the mark: it fills. */
    async function longIoc() {
      const { price, size } = await priced('long', 1.01)
      const id = cloid()
      const placed = await bed.adapter.place(bed.cred, {
        market: bed.market,
        side: 'long',
        size,
        price,
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: id,
      })
      return { id, size, placed }
    }

    test('an IOC order fills and is found by its client order id', async () => {
      const { id, size, placed } = await longIoc()
      expect(placed).toMatchObject({
        clientOrderId: id,
        state: 'filled',
        filledBase: size,
      })
      expect(await bed.adapter.order(bed.cred, bed.market, id)).toMatchObject({
        state: 'filled',
        filledBase: size,
      })
      expect(
        (await bed.adapter.positions(bed.cred)).some(
          (p) => p.market === bed.market && Number(p.size) > 0,
        ),
      ).toBe(true)
    })

    test("a filled order's venue fee: on its answer, or read from the venue's fill history", async () => {
      const since = Date.now() - 60_000
      // another long: the position the next tests read stays open
      const { id, placed } = await longIoc()
      expect(placed.state).toBe('filled')
      const fee =
        placed.feeUsd ??
        (await bed.adapter.orderFees?.(bed.cred, bed.market, {
          clientOrderId: id,
          venueOrderId: placed.venueOrderId,
          filledBase: placed.filledBase,
          since,
        }))
      // the simulated venues charge their base-tier taker rate per fill
      const rate = venueStyle(bed.adapter.venue).fees.taker
      const notional = dec(placed.filledBase).mul(placed.averagePrice ?? 0)
      const expected = notional.mul(rate)
      expect(fee, 'a fee is known').toEqual(expect.any(String))
      // fills are charged one by one, each to the micro-dollar
      expect(
        dec(fee ?? 'NaN')
          .sub(expected)
          .abs()
          .lte('0.00001'),
      ).toBe(true)
      if (dec(rate).gt(0)) expect(dec(fee ?? 0).gt(0)).toBe(true)
    })

    test('balances: the collateral, with the margin the position holds', async () => {
      // the IOC test left a long position on the account
      if (!bed.adapter.balances) return
      const b = await bed.adapter.balances(bed.cred)
      for (const f of ['equityUsd', 'availableUsd', 'marginUsedUsd'] as const) {
        expect(b[f], f).toMatch(/^-?[0-9]+(\.[0-9]+)?$/)
      }
      expect(Number(b.equityUsd)).toBeGreaterThan(0)
      expect(Number(b.marginUsedUsd)).toBeGreaterThan(0)
      expect(Number(b.availableUsd)).toBeLessThanOrEqual(Number(b.equityUsd))
      expect(Number.isSafeInteger(b.at)).toBe(true)
      // a balance as young as asked serves again
      expect(
        await bed.adapter.balances(bed.cred, { maxAgeMs: 60_000 }),
      ).toMatchObject({ equityUsd: expect.any(String) })
    })

    test('a resting order is open until cancelled by client order id', async () => {
      const { price, size } = await priced('long', 0.9)
      const id = cloid()
      const placed = await bed.adapter.place(bed.cred, {
        market: bed.market,
        side: 'long',
        size,
        price,
        timeInForce: 'gtc',
        reduceOnly: false,
        clientOrderId: id,
      })
      expect(placed.state).toBe('open')
      await bed.adapter.cancel(bed.cred, bed.market, id)
      expect((await bed.adapter.order(bed.cred, bed.market, id))?.state).toBe(
        'cancelled',
      )
      // cancelling a final order again is not an error
      await bed.adapter.cancel(bed.cred, bed.market, id)
    })

    test('a request past its validUntil is refused unsent; one inside it goes', async () => {
      const { price, size } = await priced('long', 0.9)
      const order = (clientOrderId: string, validUntil: number) => ({
        market: bed.market,
        side: 'long' as const,
        size,
        price,
        timeInForce: 'gtc' as const,
        reduceOnly: false,
        clientOrderId,
        validUntil,
      })
      const late = cloid()
      await expect(
        bed.adapter.place(bed.cred, order(late, Date.now() - 1_000)),
      ).rejects.toBeInstanceOf(VenueUnavailableError)
      expect(bed.placedCount(late)).toBe(0)
      const live = cloid()
      const placed = await bed.adapter.place(
        bed.cred,
        order(live, Date.now() + 30_000),
      )
      expect(placed.state).toBe('open')
      expect(bed.placedCount(live)).toBe(1)
      await bed.adapter.cancel(bed.cred, bed.market, live)
    })

    test('an unknown client order id is null', async () => {
      expect(await bed.adapter.order(bed.cred, bed.market, cloid())).toBeNull()
    })

    test('a lost answer is uncertain; the order is then found once, never doubled', async () => {
      const { price, size } = await priced('short', 0.99)
      const id = cloid()
      bed.loseAnswers(true)
      try {
        await expect(
          bed.adapter.place(bed.cred, {
            market: bed.market,
            side: 'short',
            size,
            price,
            timeInForce: 'ioc',
            reduceOnly: false,
            clientOrderId: id,
          }),
        ).rejects.toBeInstanceOf(UncertainSubmissionError)
      } finally {
        bed.loseAnswers(false)
      }
      expect((await bed.adapter.order(bed.cred, bed.market, id))?.state).toBe(
        'filled',
      )
      expect(bed.placedCount(id)).toBe(1)
      const timed = await bed.adapter.orderWithVenueTime?.(
        bed.cred,
        bed.market,
        id,
      )
      if (timed) expect(timed.order?.state).toBe('filled')
    })

    test('a lookup goes as urgent unless asked at an order priority (the lookup that may send an order again)', async () => {
      const asked = bed.budgetAsked
      if (!asked) return
      const { id } = await longIoc()
      const lookups = [
        () => bed.adapter.order(bed.cred, bed.market, id),
        () =>
          bed.adapter.orderWithVenueTime?.(bed.cred, bed.market, id) ?? null,
      ]
      for (const lookUp of lookups) {
        asked.length = 0
        await lookUp()
        expect(asked.length).toBeGreaterThan(0)
        expect(new Set(asked)).toEqual(new Set(['urgent']))
      }
      const atOrder = { priority: 'order' } as const
      for (const lookUp of [
        () => bed.adapter.order(bed.cred, bed.market, id, atOrder),
        () =>
          bed.adapter.orderWithVenueTime?.(bed.cred, bed.market, id, atOrder),
      ]) {
        asked.length = 0
        const found = await lookUp()
        if (found === undefined) continue
        expect(found).not.toBeNull()
        expect(new Set(asked)).toEqual(new Set(['order']))
      }
    })

    test('a quote read goes as urgent unless asked at an order priority (the price an order is sent at)', async () => {
      const asked = bed.budgetAsked
      if (!asked) return
      // the listing and funding intervals, read once and kept
      await bed.adapter.quote(bed.market)
      const quoted = async (options?: { priority: 'order' }) => {
        // a millisecond on: the snapshot is past its age of 0
        await new Promise((r) => setTimeout(r, 2))
        asked.length = 0
        const q = await bed.adapter.quote(bed.market, options)
        expect(Number(q.mark)).toBeGreaterThan(0)
        expect(asked.length).toBeGreaterThan(0)
        return new Set(asked)
      }
      expect(await quoted()).toEqual(new Set(['urgent']))
      expect(await quoted({ priority: 'order' })).toEqual(new Set(['order']))
    })

    test("a lookup timed by the venue's clock, where the adapter tells it: that clock when it answered, whole seconds; else no lag either (the skew allowance rules)", async () => {
      const timed = bed.adapter.orderWithVenueTime?.bind(bed.adapter)
      if (!timed) {
        // a lag without a venue time would prove nothing: both or neither
        expect(bed.adapter.visibilityLagMs).toBeUndefined()
        return
      }
      // the fakes run on this machine's clock, as they date their answers
      const before = Math.floor(Date.now() / 1000) * 1000
      const found = await timed(bed.cred, bed.market, cloid())
      expect(found.order).toBeNull()
      expect(found.venueTimeAtLeast).toBeGreaterThanOrEqual(before)
      expect(found.venueTimeAtLeast).toBeLessThanOrEqual(Date.now())
      expect((found.venueTimeAtLeast ?? 1) % 1000).toBe(0)
      expect(bed.adapter.visibilityLagMs).toBeGreaterThan(0)
    })
  })
}
