// A paired position from open to close: long BTC on Hyperliquid, short
// BTCUSDT on Aster, the same size on each, to earn the funding difference
// without betting on the price. Watches it until it runs, shows its funding
// APY and PnL for a while, closes it and prints the final PnL.
//
//   npm start                                          # in another terminal
//   DN_API_KEY=dn_local_… node examples/pairedPosition.mjs
//
// Env: DN_API_KEY (from examples/bindAndKey.mjs or `dn keys create`),
// DN_URL (default http://127.0.0.1:8080), DN_SIZE_USD (default 500),
// DN_HOLD_SECONDS (how long to hold it open, default 10).
// The last line of output is JSON ({taskId, seen, status, pnl}) for scripts.
import { createDnClient } from '@dn/client'

const apiKey = process.env.DN_API_KEY
if (!apiKey) throw new Error('set DN_API_KEY (node examples/bindAndKey.mjs)')
const dn = createDnClient({
  baseUrl: process.env.DN_URL || 'http://127.0.0.1:8080',
  apiKey,
})
const sizeUsd = Number(process.env.DN_SIZE_USD || 500)
const holdSeconds = Number(process.env.DN_HOLD_SECONDS || 10)
const say = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a)
const pnlLine = (p) =>
  `total ${p.totalUsd} USD (realized ${p.realizedUsd}, unrealized ${p.unrealizedUsd}, funding ${p.fundingUsd}, fees ${p.feesUsd})`

// 1. Ask for the pair. The service answers at once with `pending`; its worker
//    opens both legs. `autoClose: false` leaves closing to us (with true, the
//    worker closes it when the funding APY stays under `minFundingApy`).
const { taskId } = await dn.tasks.create({
  longVenue: 'hl',
  longMarket: 'BTC',
  shortVenue: 'aster',
  shortMarket: 'BTCUSDT',
  sizeUsd,
  autoClose: false,
})
say('task', taskId, 'created')

// 2. Wait until both legs are open. `onPoll` sees every task read; a task
//    still pending says why in `pendingReason` (funding under the minimum,
//    spread too wide, venue busy…), shown when it changes.
const seen = []
let lastReason
const running = await dn.tasks.waitFor(taskId, {
  until: 'running',
  timeoutMs: 120_000,
  onPoll: (status, task) => {
    if (seen.at(-1) !== status) {
      seen.push(status)
      say('status', status)
    }
    const reason = task.pendingReason?.message
    if (reason && reason !== lastReason) say('waiting:', reason)
    lastReason = reason
  },
})
say(
  'running:',
  `long ${running.longSize} @ ${running.longEntry} on hl,`,
  `short ${running.shortSize} @ ${running.shortEntry} on aster`,
)

// 3. Hold it and watch. `fundingApyNow` is the pair's funding APY in percent
//    (short rate − long rate) from the worker's latest quotes; `pnl` splits
//    the result into price, funding and fees, per leg and in total.
const until = Date.now() + holdSeconds * 1000
do {
  const t = await dn.tasks.get(taskId)
  say(
    'holding:',
    `funding APY now ${t.fundingApyNow ?? '?'} %,`,
    pnlLine(t.pnl),
  )
  await new Promise((r) => setTimeout(r, 2_000))
} while (Date.now() < until)

// 4. Close: both legs are reduced to zero; wait until the task is closed
//    (a DnWaitError says so at once if it ends otherwise, e.g. failed).
await dn.tasks.close(taskId)
say('close requested')
const closed = await dn.tasks.waitFor(taskId, {
  until: 'closed',
  timeoutMs: 120_000,
  onPoll: (status) => {
    if (seen.at(-1) !== status) {
      seen.push(status)
      say('status', status)
    }
  },
})
say('closed:', pnlLine(closed.pnl))
say('long  leg:', closed.pnl.long)
say('short leg:', closed.pnl.short)

console.log(
  JSON.stringify({ taskId, seen, status: closed.status, pnl: closed.pnl }),
)
