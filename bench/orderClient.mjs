// The API client of bench/worker.mjs, on a worker thread of its own so the
// time a 202 arrives is read on an event loop the server and the worker do
// not block. Times are process.hrtime (CLOCK_MONOTONIC), shared by threads.
import { randomUUID } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { parentPort } from 'node:worker_threads'

const nowMs = () => Number(process.hrtime.bigint()) / 1e6

async function place(url, apiKey, i) {
  const res = await fetch(`${url}/v1/perp/orders`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${apiKey}`,
      'content-type': 'application/json',
      'idempotency-key': randomUUID(),
    },
    body: JSON.stringify({
      venue: 'hl',
      market: 'BTC',
      side: i % 2 === 0 ? 'long' : 'short',
      orderType: 'market',
      sizeBase: 0.001,
    }),
  })
  // fetch settles when the status line and headers are in
  const acceptedAt = nowMs()
  const body = await res.json()
  return { status: res.status, orderId: body.orderId ?? null, acceptedAt }
}

/**
 * sequential: `keys.length` orders one after another, `gapMs` (jittered
 * ±50 %) between a 202 and the next request; burst: all at once.
 */
async function run({ kind, url, keys, gapMs }) {
  if (kind === 'burst') {
    return Promise.all(keys.map((k, i) => place(url, k, i)))
  }
  const out = []
  for (const [i, k] of keys.entries()) {
    out.push(await place(url, k, i))
    await sleep(gapMs * (0.5 + Math.random()))
  }
  return out
}

parentPort.on('message', async (msg) => {
  try {
    parentPort.postMessage({ id: msg.id, results: await run(msg) })
  } catch (err) {
    parentPort.postMessage({ id: msg.id, error: String(err) })
  }
})
