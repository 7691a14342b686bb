import { DnTimeoutError } from './errors/DnTimeoutError.js'
import { DnWaitError } from './errors/DnWaitError.js'

/**
 * Options of every wait helper. `S` is the resource's status union and `U`
 * the statuses awaited.
 */
export interface WaitOptions<
  S extends string = string,
  U extends S = S,
  T = unknown,
> {
  /** the status (or any of the statuses) to wait for; each helper has a default */
  readonly until?: U | readonly U[] | undefined
  /** @default 500 */
  readonly intervalMs?: number | undefined
  /** @default 120_000 */
  readonly timeoutMs?: number | undefined
  /** called on every poll with the status and what was read, e.g. to update a status line */
  readonly onPoll?: ((status: S, resource: T) => void) | undefined
  /** stops the wait (and the read in flight) with the signal's reason */
  readonly signal?: AbortSignal | undefined
}

/** What a wait needs to know about one kind of resource. */
interface PollSpec<T, S extends string> {
  /** e.g. `task 1234`, for messages */
  readonly label: string
  read(signal: AbortSignal | undefined): Promise<T>
  status(t: T): S
  /** true once `t` can no longer change to another status by itself */
  isFinal(t: T): boolean
  /** what explains a final state, e.g. `error: ...` */
  detail?(t: T): string | undefined
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Polls until the status is one of `until`. Stops early with DnWaitError
 * when the resource reaches a final status it was not awaited in (polling
 * on would only run into the timeout), and with DnTimeoutError at the
 * deadline.
 */
export async function pollUntil<T, S extends string>(
  spec: PollSpec<T, S>,
  defaultUntil: readonly S[],
  w: WaitOptions<S, S, T>,
): Promise<T> {
  const until: readonly S[] =
    w.until === undefined
      ? defaultUntil
      : typeof w.until === 'string'
        ? [w.until as S]
        : (w.until as readonly S[])
  const timeoutMs = w.timeoutMs ?? 120_000
  const deadline = Date.now() + timeoutMs
  for (;;) {
    w.signal?.throwIfAborted()
    const t = await spec.read(w.signal)
    const status = spec.status(t)
    w.onPoll?.(status, t)
    if (until.includes(status)) return t
    const wanted = until.join(' or ')
    if (spec.isFinal(t)) {
      const detail = spec.detail?.(t)
      throw new DnWaitError(
        `${spec.label} ended ${status}${detail ? ` (${detail})` : ''} while waiting for ${wanted}`,
        t,
        status,
      )
    }
    if (Date.now() > deadline)
      throw new DnTimeoutError(
        `${spec.label} still ${status} after ${timeoutMs} ms waiting for ${wanted}`,
      )
    await sleep(w.intervalMs ?? 500, w.signal)
  }
}
