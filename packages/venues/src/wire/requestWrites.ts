import { AsyncLocalStorage } from 'node:async_hooks'
import { subscribe } from 'node:diagnostics_channel'

/**
 * Whether undici wrote any byte of the requests one `fetch` made, told by
 * the diagnostics channels both Node's bundled undici (6.x) and npm undici
 * (7.x) publish:
 * - `undici:request:create` names each request as the fetch hands it to
 *   the dispatcher, inside the fetch's async context, so it is ours;
 * - `undici:client:sendHeaders` is published right before a request's
 *   first byte is written (HTTP/1.1 `writeH1`). A request aborted while it
 *   waits for its connection, or failed with it, returns before that and
 *   is never written later.
 *
 * So undici took a request of ours and never announced its headers: no
 * byte of it left, whatever the error (our timeout while connecting or
 * waiting for a pooled connection, a reset during the TLS handshake).
 * Node 20's bundled undici announces nothing for HTTP/2, so once any
 * connection negotiates `h2` nothing is proved any more. A fetch undici
 * never saw (a test's fake fetch, msw) proves nothing either.
 *
 * @module
 */

interface Watch {
  /** undici requests created for this fetch */
  taken: number
  /** of them, announced as written */
  written: number
}

const current = new AsyncLocalStorage<Watch>()
const owners = new WeakMap<object, Watch>()
let subscribed = false
let http2Seen = false

function requestOf(message: unknown): object | undefined {
  const r = (message as { request?: unknown } | null)?.request
  return r && typeof r === 'object' ? r : undefined
}

function subscribeOnce(): void {
  if (subscribed) return
  subscribed = true
  subscribe('undici:request:create', (message) => {
    const watch = current.getStore()
    const request = requestOf(message)
    if (!watch || !request) return
    watch.taken++
    owners.set(request, watch)
  })
  subscribe('undici:client:sendHeaders', (message) => {
    const request = requestOf(message)
    const watch = request && owners.get(request)
    if (watch) watch.written++
  })
  subscribe('undici:client:connected', (message) => {
    const socket = (message as { socket?: { alpnProtocol?: unknown } } | null)
      ?.socket
    if (socket?.alpnProtocol === 'h2') http2Seen = true
  })
}

/** One fetch's requests as undici handled them. */
interface RequestWrites {
  /** Runs `send` so that the undici requests it makes are watched. */
  run<T>(send: () => Promise<T>): Promise<T>
  /** undici took a request of the run and wrote no byte of any of them */
  noneWritten(): boolean
}

/**
 * Watches one fetch: after it failed, `noneWritten()` is the proof that
 * nothing of it reached the network.
 * @example
 * const writes = watchRequestWrites()
 * try { await writes.run(() => fetch(url, init)) }
 * catch (err) { if (writes.noneWritten()) retrySafely() }
 */
export function watchRequestWrites(): RequestWrites {
  subscribeOnce()
  const watch: Watch = { taken: 0, written: 0 }
  return {
    run: (send) => current.run(watch, send),
    noneWritten: () => !http2Seen && watch.taken > 0 && watch.written === 0,
  }
}
