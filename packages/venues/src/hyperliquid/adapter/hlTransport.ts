import {
  createRequestBudget,
  type RequestBudget,
  type RequestPriority,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import {
  type CallKind,
  createVenueHttp,
  type VenueBudgetOptions,
  type VenueProtocol,
} from '../../wire/venueHttp.js'
import {
  HL_LIMITS,
  hlAnswerCharges,
  hlRequestCharges,
} from '../limits/hlLimits.js'
import { hlNotActed } from './hlNotActed.js'

interface HlTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  /** the venue's budget, shared by every adapter and binder of the process */
  readonly budget: RequestBudget
}

/** Posts a JSON body to `/info` or `/exchange` and returns the parsed JSON. */
export type HlPost = (
  path: '/info' | '/exchange',
  body: unknown,
  kind: CallKind,
  /** @default 'order' for writes, 'routine' for reads */
  priority?: RequestPriority,
  /** a signed action's deadline has passed: it is not sent @default never */
  pastDeadline?: () => boolean,
) => Promise<unknown>

/**
 * Hyperliquid publishes no Retry-After: a 429 holds every request 2 s,
 * doubling with each 429 that follows with no answer between, up to
 * 10 s (df-hyperliquid-core's client: a 2 s cooldown doubled per strike).
 * Its limit is per IP over a rolling minute, and it bans nobody for
 * asking again.
 */
const HL_RATE_LIMIT_HOLD_MS = 10_000
const HL_RATE_LIMIT_FIRST_HOLD_MS = 2_000

/**
 * Hyperliquid's answers: 429 is its rate limit (per IP); the per-address
 * limit's refusal is "not done" (`hlNotActed`); a 4xx on a write is a
 * refusal (VenueRejectedError), on a read an outage; a 200 must be JSON.
 * A 5xx stays uncertain: neither the API docs (`error-responses`,
 * `rate-limits`) nor the SDKs (hyperliquid-python-sdk `api.py`: any 5xx is
 * a bare `ServerError`; nktkas/hyperliquid: `HttpRequestError`) say what
 * one means for an action.
 */
const hlProtocol: VenueProtocol<unknown> = {
  venue: 'hyperliquid',
  rateLimited: (a) => (a.status === 429 ? HL_RATE_LIMIT_HOLD_MS : null),
  firstHoldMs: HL_RATE_LIMIT_FIRST_HOLD_MS,
  notActed: (a) => hlNotActed(a.json),
  read(req, answer, uncertain) {
    if (answer.status < 200 || answer.status > 299) {
      const text = answer.text.slice(0, 500)
      if (req.kind === 'write') {
        throw new VenueRejectedError(`HTTP ${answer.status}: ${text}`.trim())
      }
      throw new VenueUnavailableError(
        `hyperliquid ${req.path}: HTTP ${answer.status} ${text}`,
      )
    }
    if (answer.json === undefined) {
      throw uncertain(`answer is not JSON: ${answer.text.slice(0, 200)}`)
    }
    return answer.json
  },
}

/** A budget of Hyperliquid's published limits. */
export function createHlBudget(options: VenueBudgetOptions): RequestBudget {
  return createRequestBudget({
    ...options,
    name: 'hyperliquid',
    limits: HL_LIMITS,
  })
}

/**
 * The HTTP layer of the Hyperliquid adapter and binder: every request is
 * weighed by Hyperliquid's cost model and waits for the venue's budget.
 * @example const post = createHlTransport({ baseUrl, fetchFn: fetch, timeout: 10_000, budget: createHlBudget({}) })
 */
export function createHlTransport(options: HlTransportOptions): HlPost {
  const send = createVenueHttp(hlProtocol, options)
  return (path, body, kind, priority, pastDeadline) => {
    const text = JSON.stringify(body)
    return send({
      pastDeadline,
      method: 'POST',
      path,
      body: { contentType: 'application/json', text },
      kind,
      priority: priority ?? (kind === 'write' ? 'order' : 'routine'),
      charges: hlRequestCharges(path, body),
      answerCharges: (json) => hlAnswerCharges(path, body, json),
    })
  }
}
