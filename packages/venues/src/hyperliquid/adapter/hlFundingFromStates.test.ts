import type { VenueCredential } from '@dn/core'
import { afterEach, describe, expect, test } from 'vitest'
import {
  type HyperliquidFake,
  startHyperliquidFake,
} from '../../sim/hyperliquidFake/startHyperliquidFake.js'
import { OWNER, simTestKit, T0 } from '../../sim/simTestKit.js'
import { createHyperliquidAdapter } from './createHyperliquidAdapter.js'

const HOUR = 3_600_000
const cred: VenueCredential = {
  owner: OWNER,
  venue: 'hl',
  accountIndex: null,
  credentialRef: null,
  secret: null,
}

let fake: HyperliquidFake | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

/**
 * The adapter against the Hyperliquid fake on a test clock, counting the
 * `/info` requests it sends by type; OWNER holds 0.05 BTC long and
 * 1 ETH short from half past T0.
 */
async function setup() {
  const k = simTestKit()
  k.setNow(T0 + HOUR / 2)
  const btcMark = Number(k.ex.quote('BTC').mark)
  const ethMark = Number(k.ex.quote('ETH').mark)
  const long = k.ex.place(
    OWNER,
    k.req({
      size: '0.05',
      price: String(Math.round(btcMark * 1.05)),
      clientOrderId: `0x${'0'.repeat(31)}1`,
    }),
  )
  const short = k.ex.place(
    OWNER,
    k.req({
      market: 'ETH',
      side: 'short',
      size: '1',
      price: String(Math.round(ethMark * 0.95)),
      clientOrderId: `0x${'0'.repeat(31)}2`,
    }),
  )
  expect([long.state, short.state]).toEqual(['filled', 'filled'])
  fake = await startHyperliquidFake({ exchange: k.ex, now: k.now })
  const sent: string[] = []
  const fetchFn: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/info')) {
      sent.push((JSON.parse(String(init?.body)) as { type: string }).type)
    }
    return fetch(input, init)
  }
  const adapter = () =>
    createHyperliquidAdapter({
      baseUrl: (fake as HyperliquidFake).url,
      isMainnet: true,
      clock: { now: k.now },
      fetchFn,
    })
  /** what the venue records as paid at the settlement `at` */
  const recorded = (market: string, at: number) =>
    k.ex
      .funding(OWNER, market, new Date(at).toISOString())
      .map((p) => ({ ...p, time: new Date(Date.parse(p.time)).toISOString() }))
  return { k, sent, adapter, recorded }
}

describe('Hyperliquid funding from the positions reads', () => {
  test('behavior: a settlement between two positions reads is booked from their cumulative funding: what the venue records, no userFunding read', async () => {
    const { k, sent, adapter, recorded } = await setup()
    const a = adapter()
    await a.positions(cred)
    k.setNow(T0 + HOUR + 10_000)
    await a.positions(cred)
    const since = new Date(T0 + HOUR / 2).toISOString()
    const [btc, eth] = await Promise.all([
      a.funding(cred, 'BTC', since),
      a.funding(cred, 'ETH', since),
    ])
    const venueBtc = recorded('BTC', T0 + HOUR)
    const venueEth = recorded('ETH', T0 + HOUR)
    expect(venueBtc).toHaveLength(1)
    expect(venueEth).toHaveLength(1)
    // a long pays and a short receives the same positive rate here, or
    // the other way round: the signs differ
    expect(Math.sign(Number(venueBtc[0]?.amountUsd))).toBe(
      -Math.sign(Number(venueEth[0]?.amountUsd)),
    )
    for (const [got, venue] of [
      [btc, venueBtc],
      [eth, venueEth],
    ] as const) {
      expect(got.map(({ rate: _, ...p }) => p)).toEqual(
        venue.map(({ rate: _, ...p }) => p),
      )
      // the rate as implied at the mark before settling: close to the
      // venue's (which settles at its own price)
      expect(Number(got[0]?.rate)).toBeCloseTo(Number(venue[0]?.rate), 6)
    }
    expect(sent.filter((t) => t === 'userFunding')).toEqual([])
    expect(sent.filter((t) => t === 'clearinghouseState')).toHaveLength(2)
    // booked up to the payment: nothing more until the next settlement
    const cursor = new Date(T0 + HOUR + 1).toISOString()
    expect(await a.funding(cred, 'BTC', cursor)).toEqual([])
    expect(sent).toEqual(['clearinghouseState', 'clearinghouseState'])
  })

  test('with no state after the settlement held, one clearinghouseState (weight 2) is read for all markets, not userFunding (weight 20)', async () => {
    const { k, sent, adapter, recorded } = await setup()
    const a = adapter()
    await a.positions(cred)
    k.setNow(T0 + HOUR + 10_000)
    const since = new Date(T0 + HOUR / 2).toISOString()
    const [btc, eth] = await Promise.all([
      a.funding(cred, 'BTC', since),
      a.funding(cred, 'ETH', since),
    ])
    expect(btc.map((p) => p.amountUsd)).toEqual(
      recorded('BTC', T0 + HOUR).map((p) => p.amountUsd),
    )
    expect(eth.map((p) => p.amountUsd)).toEqual(
      recorded('ETH', T0 + HOUR).map((p) => p.amountUsd),
    )
    expect(sent.filter((t) => t === 'clearinghouseState')).toHaveLength(2)
    expect(sent.filter((t) => t === 'userFunding')).toEqual([])
  })

  test('the venue record is read when the states cannot tell: no state before (a restart), our order around the settlement, two settlements, its first seconds', async () => {
    const { k, sent, adapter, recorded } = await setup()
    const since = new Date(T0 + HOUR / 2).toISOString()
    // a restart: nothing held from before the settlement
    k.setNow(T0 + HOUR + 10_000)
    const fresh = adapter()
    expect(await fresh.funding(cred, 'BTC', since)).toEqual(
      recorded('BTC', T0 + HOUR),
    )
    expect(sent.filter((t) => t === 'userFunding')).toHaveLength(1)

    // two settlements since the cursor
    k.setNow(T0 + 2 * HOUR + 10_000)
    expect(await fresh.funding(cred, 'BTC', since)).toEqual(
      recorded('BTC', T0 + HOUR),
    )
    expect(sent.filter((t) => t === 'userFunding')).toHaveLength(2)

    // the first seconds of an hour: the settlement may be landing
    k.setNow(T0 + 3 * HOUR + 1_000)
    const cursor = new Date(T0 + 2 * HOUR + 1).toISOString()
    expect(await fresh.funding(cred, 'BTC', cursor)).toEqual(
      recorded('BTC', T0 + 3 * HOUR),
    )
    expect(sent.filter((t) => t === 'userFunding')).toHaveLength(3)
  })

  test('our own order between the states defers that market to the venue record', async () => {
    const { k, sent, adapter, recorded } = await setup()
    const a = adapter()
    await a.positions(cred)
    // an order that goes out (and is refused: no agent) still counts
    await a
      .place(cred, {
        market: 'BTC',
        side: 'long',
        size: '0.01',
        price: '101000',
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: `0x${'0'.repeat(31)}9`,
      })
      .catch(() => undefined)
    k.setNow(T0 + HOUR + 10_000)
    await a.positions(cred)
    const since = new Date(T0 + HOUR / 2).toISOString()
    expect(await a.funding(cred, 'ETH', since)).toEqual(
      recorded('ETH', T0 + HOUR).map((p) => ({
        ...p,
        rate: expect.any(String),
      })),
    )
    expect(sent.filter((t) => t === 'userFunding')).toEqual([])
    expect(await a.funding(cred, 'BTC', since)).toEqual(
      recorded('BTC', T0 + HOUR),
    )
    expect(sent.filter((t) => t === 'userFunding')).toHaveLength(1)
  })
})
