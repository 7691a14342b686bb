import {
  type BudgetCharge,
  type RequestBudget,
  type RequestBudgetOptions,
  type RequestPriority,
  UncertainSubmissionError,
  VenueUnavailableError,
} from '@dn/core'
import { failedBeforeSending, isTimeout } from './fetchFailure.js'
import { createRateLimitBackoff } from './rateLimitBackoff.js'
import { chargeBucket, type RequestCharge } from './requestCharge.js'
import { watchRequestWrites } from './requestWrites.js'
import { recordVenueClock } from './venueClock.js'

/** `read`: nothing changes at the venue; `write`: something may be placed. */
export type CallKind = 'read' | 'write'

/** How a venue's budget is shared and how much of it is used. */
export type VenueBudgetOptions = Omit<RequestBudgetOptions, 'name' | 'limits'>

/** One request to a venue, with what it costs against its limits. */
export interface VenueRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** path after the base URL, e.g. `/info`, `/api/v1/sendTx` */
  readonly path: string
  /** encoded query string, without `?` */
  readonly query?: string | undefined
  readonly body?:
    | { readonly contentType: string; readonly text: string }
    | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly kind: CallKind
  readonly priority: RequestPriority
  /** counted before sending; [] for a venue that does not limit it */
  readonly charges: readonly RequestCharge[]
  /**
   * The charges were acquired already (before a lock the send waits on,
   * so the wait for budget does not hold the lock): not counted again
   * @default false
   */
  readonly prepaid?: boolean | undefined
  /**
   * Whether the signed deadline the venue refuses the request after has
   * passed (by the adapter's clock): a request whose wait for budget ran
   * past it is not sent at all, a plain "not sent" rather than an answer
   * the venue refuses @default never
   */
  readonly pastDeadline?: (() => boolean) | undefined
  /** weight only the answer shows (e.g. per 20 items returned) */
  readonly answerCharges?:
    | ((json: unknown) => readonly RequestCharge[])
    | undefined
}

/** What came back: status, headers and the body as text and JSON. */
export interface VenueAnswer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** the parsed body, or undefined when it is not JSON */
  readonly json: unknown
}

/**
 * What each venue supplies to the one HTTP layer: its name, how it says
 * "too many requests" and "I did not act", and how it reads every other
 * answer.
 */
export interface VenueProtocol<T> {
  /** e.g. `hyperliquid`, used in messages */
  readonly venue: string
  /**
   * A rate-limit refusal: how long to send nothing (ms) when it names no
   * wait, or null when the answer is not one. A `Retry-After` it names
   * is kept as named, for every venue. Nothing the refused request asked
   * was done.
   */
  rateLimited(answer: VenueAnswer): number | null
  /**
   * A rate-limit refusal that names no wait (no Retry-After) holds this
   * long at first, doubling with each refusal that follows with no other
   * answer between, up to `rateLimited`'s hold (`rateLimitBackoff.ts`).
   * Absent: every refusal holds the full time (a venue that bans an IP
   * that keeps sending after its refusals).
   */
  readonly firstHoldMs?: number | undefined
  /**
   * An answer the venue documents as "not done" (other than its rate
   * limit): why, or null. Nothing the request asked was done, so an
   * order may be sent again (same client order id, a fresh signature);
   * checked before the 5xx rule, so a venue may name a 5xx here. Absent
   * or null: a 5xx stays uncertain.
   */
  notActed?(answer: VenueAnswer): string | null
  /** What the answer says was spent (used-weight headers). */
  settle?(
    request: VenueRequest,
    answer: VenueAnswer,
    budget: RequestBudget,
  ): void
  /**
   * The result of an answer that is not a rate limit, not "not done" and
   * not a 5xx or 408, or the venue's refusal as an error.
   * `uncertain(msg)` builds the error for an answer that cannot be
   * trusted (a write: maybe done).
   */
  read(
    request: VenueRequest,
    answer: VenueAnswer,
    uncertain: (msg: string) => Error,
  ): T
}

interface VenueHttpOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  readonly budget: RequestBudget
}

/** Sends one budgeted request and returns what the protocol reads from it. */
type VenueSend<T> = (request: VenueRequest) => Promise<T>

/**
 * The one HTTP layer every venue adapter and binder sends through:
 * - waits for the venue's request budget (by priority) before sending;
 *   a budget that stays spent fails VenueUnavailableError, nothing sent;
 * - a request proved never written (`failedBeforeSending`, or undici
 *   never wrote it: `requestWrites.ts`) → VenueUnavailableError;
 * - the venue's rate-limit answer → the budget holds off for the
 *   `Retry-After` it names, else the protocol's hold (`firstHoldMs`:
 *   backing off), VenueUnavailableError (refused, nothing done);
 * - an answer the venue documents as "not done" (`notActed`) →
 *   VenueUnavailableError;
 * - timeout, reset, 5xx, 408 or a body cut off → a write is
 *   UncertainSubmissionError (maybe done: look it up, never resend),
 *   a read VenueUnavailableError;
 * - anything else is the venue protocol's to read.
 * Every answer's `Date` is recorded for the call that sent it
 * (`venueClock.ts`).
 * @example const send = createVenueHttp(hlProtocol, { baseUrl, fetchFn: fetch, timeout: 10_000, budget })
 */
export function createVenueHttp<T>(
  protocol: VenueProtocol<T>,
  options: VenueHttpOptions,
): VenueSend<T> {
  const base = options.baseUrl.replace(/\/+$/, '')
  const { budget } = options
  const backoff =
    protocol.firstHoldMs === undefined
      ? null
      : createRateLimitBackoff(protocol.firstHoldMs)
  return async (req) => {
    const what = `${protocol.venue} ${req.method} ${req.path}`
    const uncertain = (msg: string, cause?: unknown): Error =>
      req.kind === 'write'
        ? new UncertainSubmissionError(`${what}: ${msg}`, { cause })
        : new VenueUnavailableError(`${what}: ${msg}`, { cause })
    if (!req.prepaid) {
      await budget.acquire(budgetCharges(req.charges), req.priority)
    }
    if (req.pastDeadline?.()) {
      throw new VenueUnavailableError(
        `${what}: its send window closed while it waited for the venue's budget; nothing was sent`,
      )
    }
    let res: Response
    // only a write needs the proof that nothing was written: a read that
    // fails is unavailable whether or not it left
    const writes = req.kind === 'write' ? watchRequestWrites() : null
    const sentAt = Date.now()
    const ticket = backoff?.sending() ?? 0
    const request = () =>
      options.fetchFn(
        req.query ? `${base}${req.path}?${req.query}` : `${base}${req.path}`,
        {
          method: req.method,
          headers: {
            ...(req.body ? { 'content-type': req.body.contentType } : {}),
            ...req.headers,
          },
          ...(req.body ? { body: req.body.text } : {}),
          signal: AbortSignal.timeout(options.timeout),
        },
      )
    try {
      res = await (writes ? writes.run(request) : request())
    } catch (err) {
      if (failedBeforeSending(err)) {
        throw new VenueUnavailableError(`${what}: not reachable`, {
          cause: err,
        })
      }
      if (writes?.noneWritten()) {
        throw new VenueUnavailableError(
          `${what}: ${isTimeout(err) ? 'timed out' : 'failed'} before the request was written`,
          { cause: err },
        )
      }
      throw uncertain(
        isTimeout(err) ? 'timed out' : 'request failed after sending',
        err,
      )
    }
    // the venue's clock at its answer, for a lookup that must know it
    recordVenueClock(res.headers, sentAt, Date.now())
    let text: string
    try {
      text = await res.text()
    } catch (err) {
      throw uncertain(
        isTimeout(err) ? 'timed out reading the answer' : 'answer cut off',
        err,
      )
    }
    const answer: VenueAnswer = {
      status: res.status,
      headers: res.headers,
      text,
      json: parseJson(text),
    }
    protocol.settle?.(req, answer, budget)
    if (req.answerCharges && res.status >= 200 && res.status < 300) {
      const extra = req.answerCharges(answer.json)
      if (extra.length > 0) budget.add(budgetCharges(extra))
    }
    const fullMs = protocol.rateLimited(answer)
    if (fullMs === null) backoff?.answered(ticket)
    else {
      const holdMs =
        namedWaitMs(res.headers) ?? backoff?.refused(ticket, fullMs) ?? fullMs
      budget.holdOff(holdMs, `HTTP ${res.status}`)
      throw new VenueUnavailableError(
        `${what}: rate limited (HTTP ${res.status}), backing off ${Math.ceil(holdMs / 1000)} s`,
      )
    }
    const refused = protocol.notActed?.(answer) ?? null
    if (refused !== null) {
      throw new VenueUnavailableError(
        `${what}: not done (HTTP ${res.status}): ${refused}`,
      )
    }
    // A 408 may be a gateway that gave up waiting for the venue, not only
    // a slow client: Binance USDⓈ-M futures (whose API Aster's copies)
    // answers 408 on a "timeout ... waiting for a response from the
    // backend server". Like a 5xx it says nothing of what was done.
    if (res.status >= 500 || res.status === 408) {
      throw uncertain(`HTTP ${res.status} ${text.slice(0, 200)}`.trim())
    }
    return protocol.read(req, answer, (msg) => uncertain(msg))
  }
}

/** The budget's view of a request's charges. */
export function budgetCharges(
  charges: readonly RequestCharge[],
): BudgetCharge[] {
  return charges.map((c) => ({
    limit: c.limit,
    bucket: chargeBucket(c),
    weight: c.weight,
  }))
}

/** The wait a refusal names (`Retry-After`, in seconds), or null. */
function namedWaitMs(headers: Headers): number | null {
  const seconds = Number(headers.get('retry-after'))
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
