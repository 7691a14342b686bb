import {
  createRequestBudget,
  type RequestBudget,
  type RequestPriority,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { isObj } from '../../wire/jsonFields.js'
import type { PublishedLimit } from '../../wire/requestCharge.js'
import {
  type CallKind,
  createVenueHttp,
  type VenueBudgetOptions,
  type VenueProtocol,
} from '../../wire/venueHttp.js'
import { ASTER_LIMITS, asterRequestCharges } from '../limits/asterLimits.js'
import { AsterRejectedError } from './asterRejectedError.js'

export interface AsterRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** e.g. `/fapi/v3/order` */
  readonly path: string
  /** the exact encoded parameter string (signed requests: with signature) */
  readonly params: string
  readonly kind: CallKind
  /** @default 'order' for writes, 'routine' for reads */
  readonly priority?: RequestPriority | undefined
  /** the user a signed request acts for: per-account limits (ORDERS) */
  readonly account?: string | undefined
  /** its signed nonce has aged out of the venue's window: not sent */
  readonly pastDeadline?: (() => boolean) | undefined
}

export type AsterSend = (request: AsterRequest) => Promise<unknown>

interface AsterTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  /** Aster's per-IP budget, shared by every adapter and binder */
  readonly budget: RequestBudget
  /** the limits in force, as the last exchangeInfo published @default ASTER_LIMITS */
  readonly limits?: (() => readonly PublishedLimit[]) | undefined
}

/** Aster codes meaning "sent, execution status unknown". */
const UNKNOWN_CODES = new Set([-1006, -1007])
/**
 * Aster codes meaning "refused, try again": -1001 DISCONNECTED "Internal
 * error; unable to process your request. Please try again.", -1015
 * TOO_MANY_ORDERS (an order-count limit, when it comes without a 429).
 */
const NOT_DONE_CODES = new Set([-1001, -1015])
const MINUTE = 60_000
/** the per-IP weight limit `X-MBX-USED-WEIGHT-1M` reports on */
const WEIGHT_LIMIT = 'REQUEST_WEIGHT'

/**
 * Aster's answers (Futures V3):
 * - 429, 418 (IP ban) and -1003 are its rate limit: nothing is sent until
 *   `Retry-After` (default 60 s, a ban 120 s) has passed;
 * - "not done" (may go again): 403, the WAF's refusal, and -1001 / -1015
 *   below HTTP 500;
 * - every 5xx is uncertain, whatever its body. Aster's own doc (asterdex
 *   api-docs `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "HTTP
 *   Return Codes") says a 503 is "NOT ... a failure operation; the
 *   execution status is UNKNOWN" and has none of the 503 variants Binance
 *   USDⓈ-M documents as failures ("Service Unavailable.", -1001
 *   "Internal error; unable to process your request", -1008 overload:
 *   developers.binance.com `derivatives/usds-margined-futures/general-info`);
 *   -1008 is not among Aster's codes at all. So none of them is read as
 *   "not done" here;
 * - `X-MBX-USED-WEIGHT-1M` on every answer tells what this IP spent,
 *   other processes included: the budget counts it;
 * - -1006/-1007 mean "sent, status unknown": a write is uncertain;
 * - `{"code": <negative>, "msg"}` → AsterRejectedError (the venue's msg).
 */
const asterProtocol: VenueProtocol<unknown> = {
  venue: 'aster',
  rateLimited(a) {
    // a named Retry-After is read by the HTTP layer, for every venue
    if (a.status === 418) return 2 * MINUTE
    return a.status === 429 || errorCode(a.json) === -1003 ? MINUTE : null
  },
  notActed(a) {
    // "HTTP 403 return code is used when the WAF Limit (Web Application
    // Firewall) has been violated": refused in front of the API
    if (a.status === 403) return `WAF limit ${a.text.slice(0, 200)}`.trim()
    const code = errorCode(a.json)
    return a.status < 500 && code !== null && NOT_DONE_CODES.has(code)
      ? (errorMsg(a.json) ?? `code ${code}`)
      : null
  },
  settle(_req, a, budget) {
    const used = a.headers.get('x-mbx-used-weight-1m')
    if (used !== null && Number.isFinite(Number(used))) {
      // per IP: the bucket is the limit itself
      budget.observe(WEIGHT_LIMIT, WEIGHT_LIMIT, Number(used))
    }
  },
  read(req, a, uncertain) {
    const code = errorCode(a.json)
    if (code !== null && UNKNOWN_CODES.has(code)) {
      throw uncertain(`HTTP ${a.status} ${a.text.slice(0, 200)}`.trim())
    }
    if (code !== null) {
      throw new AsterRejectedError(code, errorMsg(a.json) ?? `code ${code}`)
    }
    if (a.status < 200 || a.status > 299) {
      if (req.kind === 'write') {
        throw new VenueRejectedError(
          `HTTP ${a.status}: ${a.text.slice(0, 200)}`,
        )
      }
      throw new VenueUnavailableError(`aster ${req.path}: HTTP ${a.status}`)
    }
    if (a.json === undefined) {
      throw uncertain(`answer is not JSON: ${a.text.slice(0, 200)}`)
    }
    return a.json
  },
}

/** A budget of Aster's published limits. */
export function createAsterBudget(options: VenueBudgetOptions): RequestBudget {
  return createRequestBudget({
    ...options,
    name: 'aster',
    limits: ASTER_LIMITS,
  })
}

/**
 * The HTTP layer of the Aster adapter and binder: every request is weighed
 * by Aster's published endpoint weights and waits for the budget. GET
 * sends the string as the query; POST, PUT and DELETE as a form body.
 * @example const send = createAsterTransport({ baseUrl, fetchFn: fetch, timeout: 10_000, budget: createAsterBudget({}) })
 */
export function createAsterTransport(o: AsterTransportOptions): AsterSend {
  const send = createVenueHttp(asterProtocol, o)
  return (req) => {
    const get = req.method === 'GET'
    return send({
      method: req.method,
      path: req.path,
      ...(get
        ? { query: req.params }
        : {
            body: {
              contentType: 'application/x-www-form-urlencoded',
              text: req.params,
            },
          }),
      kind: req.kind,
      pastDeadline: req.pastDeadline,
      priority: req.priority ?? (req.kind === 'write' ? 'order' : 'routine'),
      charges: asterRequestCharges(
        req.method,
        req.path,
        req.params,
        req.account?.toLowerCase() ?? null,
        o.limits?.() ?? ASTER_LIMITS,
      ),
    })
  }
}

function errorCode(body: unknown): number | null {
  if (!isObj(body)) return null
  const code = body.code
  return typeof code === 'number' && code < 0 ? code : null
}

function errorMsg(body: unknown): string | null {
  const msg = isObj(body) ? body.msg : undefined
  return typeof msg === 'string' ? msg : null
}
