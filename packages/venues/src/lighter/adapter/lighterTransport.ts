import {
  type Clock,
  createRequestBudget,
  type RequestBudget,
  type RequestPriority,
  VenueUnavailableError,
} from '@dn/core'
import { isObj } from '../../wire/jsonFields.js'
import {
  budgetCharges,
  createVenueHttp,
  type VenueBudgetOptions,
  type VenueProtocol,
} from '../../wire/venueHttp.js'
import {
  type LighterTier,
  lighterLimits,
  lighterRequestCharges,
} from '../limits/lighterLimits.js'
import {
  isLighterRateLimit,
  LIGHTER_CODES,
  LighterRejectedError,
} from './lighterRejectedError.js'

interface LighterTransportOptions {
  readonly baseUrl: string
  readonly fetchFn: typeof globalThis.fetch
  /** ms before a request is abandoned */
  readonly timeout: number
  /**
   * the deployment's budget, shared by its adapter and binder; its tier
   * weighs every request
   */
  readonly budget: LighterBudget
}

/**
 * A Lighter budget knows the tier it was made for: requests are weighed by
 * that tier's cost model, so the transport cannot charge a bucket the
 * budget does not hold (a binder weighing a builder-tier tx as standard
 * spent the `l1` bucket while the venue counted `tx`).
 */
export interface LighterBudget extends RequestBudget {
  readonly tier: LighterTier
}

/** A read as an account: its auth token, counted against its L1 address. */
export interface LighterAuth {
  readonly token: string
  /** the account's L1 (wallet) address */
  readonly l1Address: string
}

export interface LighterTransport {
  /**
   * `GET /api/v1/<path>?<query>`; with `auth` it is sent as the account
   * (`Authorization`), so only the account's own limit is spent.
   */
  get(
    path: string,
    query: Readonly<Record<string, string | number>>,
    auth?: LighterAuth | undefined,
    priority?: RequestPriority,
  ): Promise<Record<string, unknown>>
  /**
   * `POST /api/v1/sendTx` with the form fields `tx_type`, `tx_info`, for
   * the account of L1 address `l1Address`.
   */
  sendTx(
    txType: number,
    txInfo: string,
    l1Address: string,
    /** its budget was taken by `reserveSendTx` @default false */
    prepaid?: boolean,
  ): Promise<Record<string, unknown>>
  /**
   * Waits for (and counts) the budget of one `sendTx` for `l1Address`,
   * so a sender can wait for it before taking its key's nonce lock and
   * then send `prepaid`. Fails VenueUnavailableError, nothing counted,
   * when the budget stays spent (past `maxWaitMs`, when given: the send's
   * window, which a later send could not use).
   */
  reserveSendTx(l1Address: string, maxWaitMs?: number): Promise<void>
}

/**
 * Lighter's limits are per rolling minute and its 429 names no wait: a
 * refusal holds every request 2 s, doubling with each refusal that
 * follows with no answer between, up to 10 s (as Hyperliquid's).
 */
const LIGHTER_RATE_LIMIT_HOLD_MS = 10_000
const LIGHTER_RATE_LIMIT_FIRST_HOLD_MS = 2_000

/**
 * Lighter's answers. `{code, message}` with a code other than 200 (HTTP
 * 400, or a 200) is a LighterRejectedError: refused at the API, nothing
 * happened. 429 or codes 23000..23003 are its rate limit; 21506 "too many
 * pending txs. Please try again later" is "not done" (ccxt `lighter.ts`'s
 * code table, which mirrors apidocs.lighter.xyz): refused at the API, so
 * neither the tx nor its nonce was used. A 5xx (and a 408) stays
 * uncertain: Lighter's error list has only API codes and says nothing of
 * what a 5xx from `sendTx` did (lighter-python's generated client raises
 * a bare `ServiceException` for one).
 */
const lighterProtocol: VenueProtocol<Record<string, unknown>> = {
  venue: 'lighter',
  firstHoldMs: LIGHTER_RATE_LIMIT_FIRST_HOLD_MS,
  notActed(a) {
    const body = isObj(a.json) ? a.json : null
    if (body?.code !== LIGHTER_CODES.tooManyPendingTxs) return null
    // the API's own refusal (as LighterRejectedError reads it), not a
    // gateway's body that happens to carry the code
    const atApi = a.status === 400 || (a.status >= 200 && a.status < 300)
    return atApi ? String(body.message ?? 'too many pending txs') : null
  },
  rateLimited(a) {
    const code = isObj(a.json) ? a.json.code : undefined
    const limited =
      a.status === 429 || (typeof code === 'number' && isLighterRateLimit(code))
    return limited ? LIGHTER_RATE_LIMIT_HOLD_MS : null
  },
  read(req, a, uncertain) {
    if (a.json === undefined) {
      if (a.status >= 200 && a.status < 300) {
        throw uncertain(`answer is not JSON: ${a.text.slice(0, 200)}`)
      }
      throw new VenueUnavailableError(
        `lighter ${req.path}: HTTP ${a.status} ${a.text.slice(0, 200)}`,
      )
    }
    const obj = isObj(a.json) ? a.json : {}
    const code = typeof obj.code === 'number' ? obj.code : undefined
    const ok = a.status >= 200 && a.status < 300
    if (ok && (code === undefined || code === LIGHTER_CODES.ok)) return obj
    if (code !== undefined && (ok || a.status === 400)) {
      throw new LighterRejectedError(code, String(obj.message ?? 'refused'))
    }
    throw new VenueUnavailableError(
      `lighter ${req.path}: HTTP ${a.status} ${a.text.slice(0, 200)}`,
    )
  },
}

/** A budget of one Lighter deployment's published limits for `tier`. */
export function createLighterBudget(
  options: VenueBudgetOptions & { readonly tier?: LighterTier | undefined },
): LighterBudget {
  const { tier = 'standard', ...rest } = options
  const budget = createRequestBudget({
    ...rest,
    name: 'lighter',
    limits: lighterLimits(tier),
  })
  return Object.freeze({ ...budget, tier })
}

/**
 * The budget an adapter or binder spends: the one given (shared by a
 * deployment), else its own for `tier`. A tier given beside a budget for
 * another tier is a composition error, not something to pick between.
 */
export function lighterBudgetOf(
  options: {
    readonly tier?: LighterTier | undefined
    readonly budget?: LighterBudget | undefined
  },
  clock: Clock,
): LighterBudget {
  const { tier, budget } = options
  if (!budget) return createLighterBudget({ tier, clock })
  if (tier !== undefined && tier !== budget.tier) {
    throw new RangeError(
      `lighter: tier ${tier} given with a budget for the ${budget.tier} tier`,
    )
  }
  return budget
}

/**
 * The HTTP layer of the Lighter adapter and binder: every request is
 * weighed by Lighter's cost model for the tier and waits for the budget.
 * Everything that goes wrong after the request left (timeout, reset, 5xx,
 * a body that is not JSON) is VenueUnavailableError for reads and
 * UncertainSubmissionError for `sendTx`: the tx may have been accepted.
 * @example
 * const t = createLighterTransport({ baseUrl, fetchFn: fetch,
 *   timeout: 10_000, budget: createLighterBudget({}) })
 */
export function createLighterTransport(
  options: LighterTransportOptions,
): LighterTransport {
  const send = createVenueHttp(lighterProtocol, options)
  const { tier } = options.budget
  const sendTxCharges = (l1Address: string) =>
    lighterRequestCharges(tier, 'sendTx', l1Address.toLowerCase())
  const transport: LighterTransport = {
    get(path, query, auth, priority) {
      const qs = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString()
      return send({
        method: 'GET',
        path: `/api/v1/${path}`,
        query: qs,
        headers: auth ? { authorization: auth.token } : {},
        kind: 'read',
        priority: priority ?? 'routine',
        charges: lighterRequestCharges(
          tier,
          path,
          auth ? auth.l1Address.toLowerCase() : null,
        ),
      })
    },
    reserveSendTx(l1Address, maxWaitMs) {
      return options.budget.acquire(
        budgetCharges(sendTxCharges(l1Address)),
        'order',
        maxWaitMs === undefined ? undefined : { maxWaitMs },
      )
    },
    sendTx(txType, txInfo, l1Address, prepaid = false) {
      return send({
        prepaid,
        method: 'POST',
        path: '/api/v1/sendTx',
        body: {
          contentType: 'application/x-www-form-urlencoded',
          text: new URLSearchParams({
            tx_type: String(txType),
            tx_info: txInfo,
          }).toString(),
        },
        kind: 'write',
        priority: 'order',
        charges: sendTxCharges(l1Address),
      })
    },
  }
  return Object.freeze(transport)
}
