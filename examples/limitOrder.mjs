// A direct perpetual order: read the market's rules and quote, rest a limit
// buy far under the mark (so it does not fill), wait until the venue shows
// it open, cancel it and wait until it is cancelled.
//
//   npm start                                       # in another terminal
//   DN_API_KEY=dn_local_… node examples/limitOrder.mjs
//
// Env: DN_API_KEY (from examples/bindAndKey.mjs or `dn keys create`),
// DN_URL (default http://127.0.0.1:8080), DN_VENUE (default hl),
// DN_MARKET (default BTC).
// The last line of output is JSON ({orderId, limitPrice, sizeBase, seen,
// status}) for scripts.
import { createDnClient } from '@dn/client'

const apiKey = process.env.DN_API_KEY
if (!apiKey) throw new Error('set DN_API_KEY (node examples/bindAndKey.mjs)')
const dn = createDnClient({
  baseUrl: process.env.DN_URL || 'http://127.0.0.1:8080',
  apiKey,
})
const venue = process.env.DN_VENUE || 'hl'
const symbol = process.env.DN_MARKET || 'BTC'
const say = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a)

/** `x` rounded down (or up) to a multiple of `step`, as a decimal string. */
function toStep(x, step, round = Math.floor) {
  const decimals = step.includes('.') ? step.split('.')[1].length : 0
  return (round(x / Number(step)) * Number(step)).toFixed(decimals)
}

// 1. The market: its tick (price step), size step, minimums and the current
//    mark. Every venue has its own symbols (hl BTC, aster BTCUSDT, lighter BTC).
const { markets } = await dn.markets.list({ venue })
const market = markets.find((m) => m.symbol === symbol)
if (!market) throw new Error(`${venue} lists no ${symbol}`)
if (market.mark === null) throw new Error(`${venue} ${symbol} has no quote`)
const mark = Number(market.mark)
say(`${venue} ${symbol}: mark ${market.mark}, tick ${market.tickSize}`)

// 2. Half the mark, on the tick. Hyperliquid also allows at most five
//    significant figures in a price, hence toPrecision(5) first. Size: about
//    USD 25, on the size step, at least the venue's minimums.
const limitPrice = toStep(Number((mark * 0.5).toPrecision(5)), market.tickSize)
const minUsd = Math.max(25, Number(market.minNotionalUsd))
const sizeBase = toStep(
  Math.max(minUsd / Number(limitPrice), Number(market.minBase)),
  market.sizeStep,
  Math.ceil,
)

// 3. Place it: good till cancelled. The answer is `pending`; the worker sends
//    it to the venue, and `waitFor` resolves once it rests there (`open`).
const { orderId } = await dn.orders.create({
  venue,
  market: symbol,
  side: 'long',
  orderType: 'limit',
  timeInForce: 'gtc',
  limitPrice: Number(limitPrice),
  sizeBase: Number(sizeBase),
})
say('order', orderId, `buy ${sizeBase} ${symbol} at ${limitPrice}`)
const seen = []
const onPoll = (status) => {
  if (seen.at(-1) !== status) {
    seen.push(status)
    say('status', status)
  }
}
const open = await dn.orders.waitFor(orderId, {
  until: 'open',
  timeoutMs: 60_000,
  onPoll,
})
say('resting at the venue:', open.venueStatus ?? open.status)

// 4. Cancel. The answer is `cancelled` when it never reached the venue, else
//    `cancel_queued` until the venue confirms; wait for `cancelled` either way.
const ack = await dn.orders.cancel(orderId)
say('cancel:', ack.status)
const cancelled = await dn.orders.waitFor(orderId, {
  until: 'cancelled',
  timeoutMs: 60_000,
  onPoll,
})
say('cancelled; filled', cancelled.filledBase, symbol)

console.log(
  JSON.stringify({
    orderId,
    limitPrice,
    sizeBase,
    seen,
    status: cancelled.status,
  }),
)
