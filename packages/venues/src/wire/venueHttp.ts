import {
  type BudgetCharge,
  type RequestBudget,
  type RequestBudgetOptions,
  type RequestPriority,
  UncertainSubmissionError,
  VenueUnavailableError,
} from '@dn/core'
import { failedBeforeSending, isTimeout } from './fetchFailure.js'
import { chargeBucket, type RequestCharge } from './requestCharge.js'

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
 * "too many requests", and how it reads every other answer.
 */
export interface VenueProtocol<T> {
  /** e.g. `hyperliquid`, used in messages */
  readonly venue: string
  /**
   * A rate-limit refusal: how long to send nothing (ms), or null when
   * the answer is not one. Nothing the refused request asked was done.
   */
  rateLimited(answer: VenueAnswer): number | null
  /** What the answer says was spent (used-weight headers). */
  settle?(
    request: VenueRequest,
    answer: VenueAnswer,
    budget: RequestBudget,
  ): void
  /**
   * The result of an answer that is not a rate limit and not a 5xx, or
   * the venue's refusal as an error. `uncertain(msg)` builds the error
   * for an answer that cannot be trusted (a write: maybe done).
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
 * - a connection never made → VenueUnavailableError (nothing sent);
 * - the venue's rate-limit answer → the budget holds off for as long as
 *   the venue asks, VenueUnavailableError (refused, nothing done);
 * - timeout, reset, 5xx or a body cut off → a write is
 *   UncertainSubmissionError (maybe done: look it up, never resend),
 *   a read VenueUnavailableError;
 * - anything else is the venue protocol's to read.
 * @example const send = createVenueHttp(hlProtocol, { baseUrl, fetchFn: fetch, timeout: 10_000, budget })
 */
export function createVenueHttp<T>(
  protocol: VenueProtocol<T>,
  options: VenueHttpOptions,
): VenueSend<T> {
  const base = options.baseUrl.replace(/\/+$/, '')
  const { budget } = options
  return async (req) => {
    const what = `${protocol.venue} ${req.method} ${req.path}`
    const uncertain = (msg: string, cause?: unknown): Error =>
      req.kind === 'write'
        ? new UncertainSubmissionError(`${what}: ${msg}`, { cause })
        : new VenueUnavailableError(`${what}: ${msg}`, { cause })
    if (!req.prepaid) {
      await budget.acquire(budgetCharges(req.charges), req.priority)
    }
    let res: Response
    try {
      res = await options.fetchFn(
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
    } catch (err) {
      if (failedBeforeSending(err)) {
        throw new VenueUnavailableError(`${what}: not reachable`, {
          cause: err,
        })
      }
      throw uncertain(
        isTimeout(err) ? 'timed out' : 'request failed after sending',
        err,
      )
    }
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
    const holdMs = protocol.rateLimited(answer)
    if (holdMs !== null) {
      budget.holdOff(holdMs, `HTTP ${res.status}`)
      throw new VenueUnavailableError(
        `${what}: rate limited (HTTP ${res.status}), backing off ${Math.ceil(holdMs / 1000)} s`,
      )
    }
    if (res.status >= 500) {
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
