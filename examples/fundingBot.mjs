// A funding-rate bot. Every scan it reads the markets of a few venues,
// matches the same asset across them, and computes for each asset the best
// pair: long where funding is lowest, short where it is highest, earning the
// difference. It opens a pair when that difference (as an APY) is at least
// DN_BOT_OPEN_APY, holds it while it stays at least DN_BOT_CLOSE_APY, and
// closes it when it decays below. Ctrl-C (or DN_BOT_MAX_SECONDS) closes what
// it opened before it exits; a second Ctrl-C exits at once.
//
//   npm start                                     # in another terminal
//   DN_API_KEY=dn_local_… node examples/fundingBot.mjs
//
// Env (APYs in percent, e.g. 10 = 10 % a year):
//   DN_API_KEY                the key (examples/bindAndKey.mjs)
//   DN_URL                    default http://127.0.0.1:8080
//   DN_BOT_VENUES             default hl,aster,lighter (the key must grant them)
//   DN_BOT_OPEN_APY           default 10
//   DN_BOT_CLOSE_APY          default 3
//   DN_BOT_SIZE_USD           per pair, default 500
//   DN_BOT_MAX_PAIRS          open at once, default 1
//   DN_BOT_INTERVAL_SECONDS   between scans, default 30
//   DN_BOT_COOLDOWN_SECONDS   before an asset closed is opened again, default 600
//   DN_BOT_MAX_SECONDS        stop (closing everything) after this, default never
// The last line of output is JSON ({opened, closed, stoppedBy}) for scripts.
import { setTimeout as delay } from 'node:timers/promises'
import { createDnClient, DnApiError } from '@dn/client'

const apiKey = process.env.DN_API_KEY
if (!apiKey) throw new Error('set DN_API_KEY (node examples/bindAndKey.mjs)')
const dn = createDnClient({
  baseUrl: process.env.DN_URL || 'http://127.0.0.1:8080',
  apiKey,
})
const env = (name, fallback) => Number(process.env[name] || fallback)
const venues = (process.env.DN_BOT_VENUES || 'hl,aster,lighter').split(',')
const openApy = env('DN_BOT_OPEN_APY', 10)
const closeApy = env('DN_BOT_CLOSE_APY', 3)
const sizeUsd = env('DN_BOT_SIZE_USD', 500)
const maxPairs = env('DN_BOT_MAX_PAIRS', 1)
const intervalMs = env('DN_BOT_INTERVAL_SECONDS', 30) * 1000
const cooldownMs = env('DN_BOT_COOLDOWN_SECONDS', 600) * 1000
const maxMs = env('DN_BOT_MAX_SECONDS', 0) * 1000
const say = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a)
const pct = (x) => `${x.toFixed(2)} %`

/**
 * The bot's symbol mapping: the asset a venue's symbol trades. Aster quotes
 * in USDT (BTCUSDT), Hyperliquid and Lighter name the coin (BTC).
 * Hyperliquid's builder markets (`xyz:TSLA`) are left out.
 */
const assetOf = (symbol) =>
  symbol.includes(':') ? null : symbol.replace(/USDT$/, '')

/**
 * One scan: for each asset, the funding of every venue that quotes it:
 * `{venue, symbol, apy}` with `apy` in percent, as the API's `fundingApy`
 * (hourly rate × 24 × 365 × 100).
 */
async function scan() {
  const byAsset = new Map()
  const lists = await Promise.allSettled(
    venues.map((venue) => dn.markets.list({ venue })),
  )
  lists.forEach((r, i) => {
    if (r.status === 'rejected') {
      say(`skip ${venues[i]}: ${r.reason.message}`)
      return
    }
    for (const m of r.value.markets) {
      const asset = assetOf(m.symbol)
      if (asset === null || m.fundingApy === null) continue
      const quote = {
        venue: r.value.venue,
        symbol: m.symbol,
        apy: Number(m.fundingApy),
      }
      byAsset.set(asset, [...(byAsset.get(asset) ?? []), quote])
    }
  })
  return byAsset
}

/** Each asset's widest pair: long the lowest funding, short the highest. */
function bestPairs(byAsset) {
  const pairs = []
  for (const [asset, quotes] of byAsset) {
    if (quotes.length < 2) continue
    const sorted = [...quotes].sort((a, b) => a.apy - b.apy)
    const long = sorted[0]
    const short = sorted.at(-1)
    pairs.push({ asset, long, short, diff: short.apy - long.apy })
  }
  return pairs.sort((a, b) => b.diff - a.diff)
}

/** A held pair's difference now: short's funding − long's, from this scan. */
function diffNow(byAsset, pair) {
  const quotes = byAsset.get(pair.asset) ?? []
  const find = (leg) =>
    quotes.find((q) => q.venue === leg.venue && q.symbol === leg.symbol)
  const long = find(pair.long)
  const short = find(pair.short)
  return long && short ? short.apy - long.apy : null
}

const describe = (p) =>
  `${p.asset} ${pct(p.diff)} (long ${p.long.venue}:${p.long.symbol} ${pct(p.long.apy)}, short ${p.short.venue}:${p.short.symbol} ${pct(p.short.apy)})`

// What this run opened and closed; only these are ever closed.
const held = new Map() // taskId → pair
const opened = []
const closed = []
const cooldownUntil = new Map() // asset → ms
const stop = new AbortController()
let stoppedBy = null

function stopWith(reason) {
  if (stoppedBy) {
    say(`${reason} again: exiting now; left open:`, [...held.keys()])
    process.exit(130)
  }
  stoppedBy = reason
  say(`${reason}: closing what this bot opened (again to exit at once)`)
  stop.abort(new Error(reason))
}
process.on('SIGINT', () => stopWith('SIGINT'))
process.on('SIGTERM', () => stopWith('SIGTERM'))

async function open(pair) {
  const { taskId } = await dn.tasks.create({
    longVenue: pair.long.venue,
    longMarket: pair.long.symbol,
    shortVenue: pair.short.venue,
    shortMarket: pair.short.symbol,
    sizeUsd,
    autoClose: false, // the bot decides when to close
  })
  held.set(taskId, pair)
  opened.push({ taskId, ...pair, at: new Date().toISOString() })
  say(`open ${taskId}: ${describe(pair)} ≥ ${pct(openApy)}`)
  try {
    const t = await dn.tasks.waitFor(taskId, {
      until: 'running',
      timeoutMs: 120_000,
      signal: stop.signal,
    })
    say(
      `opened ${taskId}: long ${t.longSize} @ ${t.longEntry}, short ${t.shortSize} @ ${t.shortEntry}`,
    )
  } catch (e) {
    if (stop.signal.aborted) return // closed with the rest
    say(`open ${taskId} did not run: ${e.message}`)
    await end(taskId, 'did not open') // cancels it if still pending
  }
}

const OVER = ['closed', 'cancelled', 'failed']

/** Forgets a task that is over, and cools its asset down. */
function forget(taskId, why, task) {
  cooldownUntil.set(held.get(taskId).asset, Date.now() + cooldownMs)
  held.delete(taskId)
  closed.push({ taskId, why, status: task.status, pnl: task.pnl })
  say(
    `closed ${taskId} (${why}): ${task.status}, PnL ${task.pnl.totalUsd} USD (funding ${task.pnl.fundingUsd})`,
  )
}

/**
 * Ends a task this bot opened: cancels it while pending, closes it once
 * running, and waits until it is over. A 409 means it moved on meanwhile:
 * read it again.
 */
async function end(taskId, why) {
  for (let attempt = 0; ; attempt++) {
    const t = await dn.tasks.get(taskId)
    try {
      if (t.status === 'pending') await dn.tasks.cancel(taskId)
      else if (t.status === 'running' || t.status === 'resizing')
        await dn.tasks.close(taskId)
      const done = await dn.tasks.waitFor(taskId, {
        until: OVER,
        timeoutMs: 120_000,
      })
      return forget(taskId, why, done)
    } catch (e) {
      if (!(e instanceof DnApiError && e.status === 409) || attempt > 5) throw e
    }
  }
}

/** Waits `ms`, or less when the bot is stopped. */
const sleep = (ms) =>
  delay(ms, undefined, { signal: stop.signal }).catch(() => {})

say(
  `bot: venues ${venues.join(',')}; open ≥ ${pct(openApy)}, close < ${pct(closeApy)}, USD ${sizeUsd} a pair, at most ${maxPairs}`,
)
if (closeApy > openApy)
  say(
    'note: the close threshold is above the open one: each pair closes at the next scan',
  )
const deadline = maxMs > 0 ? Date.now() + maxMs : Infinity

while (!stop.signal.aborted) {
  if (Date.now() >= deadline) {
    stoppedBy = 'max_seconds'
    say(`ran ${maxMs / 1000} s: closing what this bot opened`)
    break
  }
  // One round; an error (the service restarting, a timeout) is logged and the
  // next round tries again: the pairs stay open meanwhile.
  try {
    const byAsset = await scan()
    const pairs = bestPairs(byAsset)
    say('scan:', pairs.map(describe).join('; ') || 'no asset on two venues')

    // Held pairs: keep while the difference (from this scan's data) holds up.
    for (const [taskId, pair] of held) {
      const diff = diffNow(byAsset, pair)
      const task = await dn.tasks.get(taskId)
      if (OVER.includes(task.status)) {
        // the service ended it (e.g. liquidation protection): nothing to close
        forget(taskId, task.closeReason ?? task.error ?? 'ended', task)
        continue
      }
      const service =
        task.fundingApyNow === null
          ? ''
          : `, the service sees ${task.fundingApyNow} %`
      if (diff !== null && diff >= closeApy) {
        say(
          `hold ${pair.asset}: ${pct(diff)} ≥ ${pct(closeApy)}${service}; PnL ${task.pnl.totalUsd} USD`,
        )
      } else {
        say(
          `close ${pair.asset}: ${diff === null ? 'no quote' : pct(diff)} < ${pct(closeApy)}${service}`,
        )
        await end(taskId, 'decayed')
      }
    }

    // A new pair: the widest difference over the threshold, on an asset not held
    // or cooling down.
    const busy = new Set([...held.values()].map((p) => p.asset))
    const best = pairs.find(
      (p) =>
        !busy.has(p.asset) && (cooldownUntil.get(p.asset) ?? 0) <= Date.now(),
    )
    if (held.size < maxPairs && best) {
      if (best.diff >= openApy) await open(best)
      else say(`wait: best ${describe(best)} < ${pct(openApy)}`)
    }
  } catch (e) {
    say(`round failed, retrying next round: ${e.message}`)
  }
  await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())))
}

// Stopping: close (or cancel) everything this run opened, together.
await Promise.all([...held.keys()].map((id) => end(id, stoppedBy)))
console.log(JSON.stringify({ opened, closed, stoppedBy }))
