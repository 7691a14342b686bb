import { describe, expect, test } from 'vitest'
import { OWNER, simTestKit } from './simTestKit.js'

const OTHER = '0x00000000000000000000000000000000000000b2'

/** A GTC buy far under the mark: it rests. */
function resting(k: ReturnType<typeof simTestKit>, market: string) {
  const mark = Number(k.ex.quote(market).mark)
  const price = Math.floor(mark / 2)
  return k.req({ market, timeInForce: 'gtc', price: String(price) })
}

describe('scheduled cancels (dead-man switches) on the engine', () => {
  test('behavior: at its time the owner’s resting orders are cancelled, others stay', () => {
    const k = simTestKit()
    k.ex.faucet(OTHER, 100_000)
    const mine = k.ex.place(OWNER, resting(k, 'BTC'))
    const eth = k.ex.place(OWNER, resting(k, 'ETH'))
    const theirs = k.ex.place(OTHER, resting(k, 'BTC'))
    k.ex.scheduleCancel(OWNER, k.now() + 10_000, null)
    k.advance(9_999)
    expect(k.ex.openOrders(OWNER)).toHaveLength(2)
    k.advance(1)
    expect(k.ex.openOrders(OWNER)).toHaveLength(0)
    const seen = k.ex.order(OWNER, mine.clientOrderId)
    expect(seen?.state).toBe('cancelled')
    // Hyperliquid's orderStatus word for it
    expect(seen?.venueStatus).toBe('scheduledCancel')
    expect(k.ex.order(OWNER, eth.clientOrderId)?.state).toBe('cancelled')
    expect(k.ex.order(OTHER, theirs.clientOrderId)?.state).toBe('open')
  })

  test('behavior: a market-scoped schedule cancels that market only', () => {
    const k = simTestKit({ venue: 'aster' })
    const btc = k.ex.place(OWNER, resting(k, 'BTCUSDT'))
    const eth = k.ex.place(OWNER, resting(k, 'ETHUSDT'))
    k.ex.scheduleCancel(OWNER, k.now() + 1_000, 'BTCUSDT')
    k.advance(5_000)
    const seen = k.ex.order(OWNER, btc.clientOrderId)
    expect(seen?.venueStatus).toBe('CANCELED')
    expect(k.ex.order(OWNER, eth.clientOrderId)?.state).toBe('open')
  })

  test('behavior: a new schedule replaces the old; null clears it', () => {
    const k = simTestKit({ venue: 'lighter' })
    const o = k.ex.place(OWNER, resting(k, 'ETH'))
    k.ex.scheduleCancel(OWNER, k.now() + 1_000, null)
    k.ex.scheduleCancel(OWNER, k.now() + 60_000, null)
    k.advance(30_000)
    expect(k.ex.order(OWNER, o.clientOrderId)?.state).toBe('open')
    k.ex.scheduleCancel(OWNER, null, null)
    k.advance(60_000)
    expect(k.ex.order(OWNER, o.clientOrderId)?.state).toBe('open')
    k.ex.scheduleCancel(OWNER, k.now() + 1_000, null)
    k.advance(1_000)
    expect(k.ex.order(OWNER, o.clientOrderId)?.venueStatus).toBe('canceled')
  })

  test('behavior: it fires in time order, before a later step could fill', () => {
    const k = simTestKit()
    const mark = Number(k.ex.quote('BTC').mark)
    // a buy just under the mark: some later step's mark crosses it
    const o = k.ex.place(
      OWNER,
      k.req({ timeInForce: 'gtc', price: String(Math.floor(mark * 0.9995)) }),
    )
    k.ex.scheduleCancel(OWNER, k.now() + 1, null)
    // one read an hour later: the cancel came at its instant, first
    k.advance(3_600_000)
    expect(k.ex.order(OWNER, o.clientOrderId)?.state).toBe('cancelled')
  })
})
