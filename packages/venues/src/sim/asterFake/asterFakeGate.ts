import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  ASTER_LIMITS,
  asterRequestCharges,
} from '../../aster/limits/asterLimits.js'
import {
  asterLimitHeader,
  asterLimitType,
  asterRateLimitEntries,
} from '../../aster/limits/asterRateLimitEntries.js'
import type { PublishedLimit, RequestCharge } from '../../wire/requestCharge.js'
import {
  clientIp,
  type FakeLimitOptions,
  resolveFakeLimits,
} from '../fakeLimitOptions.js'
import type { FakeBucketUsage } from '../fakeRateLimits.js'
import { sendJson } from '../loopbackHttp.js'

/**
 * Aster's rate limiting in front of the fake, as the futures v3 doc
 * (asterdex/api-docs@265e024, LIMITS, HTTP Return Codes, Error Codes)
 * describes it:
 * - `X-MBX-USED-WEIGHT-1M` on every answer, errors included: the IP's
 *   weight this (calendar) minute ("The limits on the API are based on
 *   the IPs"), counted when the request arrives; `X-MBX-ORDER-COUNT-1M`
 *   on answers to order requests: the account's orders this minute,
 *   counted once the request is authenticated (only a signed request
 *   names its account; an unsigned one must not spend another's orders);
 * - over a limit: HTTP 429 `{code: -1003}` (weight) or `{code: -1015}`
 *   (orders) with `Retry-After` (seconds until it fits);
 * - an IP that sends again before a weight 429's Retry-After has passed
 *   is banned: HTTP 418 `{code: -1003, msg: "Way too many requests; IP
 *   banned until …"}` with `Retry-After`, 2 minutes for the first ban,
 *   doubling for each further one up to 3 days ("from 2 minutes to 3
 *   days").
 *
 * [unverified] Retry-After: the Aster doc does not mention it; Binance,
 * whose API Aster copies, sends it with 429 and 418. The ban trigger
 * (any request inside a weight 429's Retry-After; an account's ORDERS
 * 429 does not ban its IP) and the doubling are one reading of
 * "repeatedly violating rate limits and/or failing to back off", which
 * the doc writes under "IP Limits". The messages are the doc's, with
 * `%s` filled from the limit.
 *
 * @module
 */

interface AsterFakeGate {
  /** the limits in force, for exchangeInfo's `rateLimits` */
  readonly rateLimits: ReturnType<typeof asterRateLimitEntries>
  /** Sets the used-weight header as it stands (for early errors). */
  stamp(req: IncomingMessage, res: ServerResponse): void
  /**
   * At the gateway: counts a request's weight (per IP limits) and sets
   * the used-weight header; answers 429 or 418 itself and returns false
   * when the request is refused.
   * @param params the encoded query or body
   */
  admit(
    req: IncomingMessage,
    res: ServerResponse,
    method: Method,
    path: string,
    params: string,
  ): boolean
  /**
   * After authentication: counts the orders a request places against the
   * authenticated `user`'s ORDERS limits and sets `X-MBX-ORDER-COUNT-1M`;
   * answers 429 itself and returns false when refused.
   */
  admitOrders(
    req: IncomingMessage,
    res: ServerResponse,
    method: Method,
    path: string,
    params: string,
    user: string,
  ): boolean
  usage(): FakeBucketUsage[]
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

const FIRST_BAN_MS = 2 * 60_000
const MAX_BAN_MS = 3 * 86_400_000

interface IpState {
  /** a 429 told the IP to wait until then */
  limitedUntil: number
  bannedUntil: number
  bans: number
}

const seconds = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)))

function refusal(limit: PublishedLimit) {
  const entry = asterRateLimitEntries([limit])[0]
  const per = entry
    ? `${entry.intervalNum === 1 ? '' : `${entry.intervalNum} `}${entry.interval}`
    : 'MINUTE'
  return asterLimitType(limit.id) === 'ORDERS'
    ? {
        code: -1015,
        msg: `Too many new orders; current limit is ${limit.capacity} orders per ${per}.`,
      }
    : {
        code: -1003,
        msg: `Too many requests; current limit is ${limit.capacity} requests per minute. Please use the websocket for live updates to avoid polling the API.`,
      }
}

/**
 * The gate of one Aster fake over ASTER_LIMITS (or `option.limits`),
 * counted per calendar window.
 */
export function createAsterFakeGate(
  option: boolean | FakeLimitOptions | undefined,
  fakeNow: () => number,
): AsterFakeGate {
  const { limiter, limits, enforce, now } = resolveFakeLimits(
    option,
    () => ASTER_LIMITS,
    fakeNow,
    'fixed',
  )
  const ips = new Map<string, IpState>()
  const perIp = limits.filter((l) => l.per === 'ip')

  function stampWeights(
    res: ServerResponse,
    ip: string,
    used: ReadonlyMap<string, number>,
  ) {
    for (const l of perIp) {
      const header = asterLimitHeader(l)
      if (header)
        res.setHeader(header, String(used.get(l.id) ?? limiter.used(ip, l.id)))
    }
  }

  function banned(res: ServerResponse, ip: string, until: number, t: number) {
    stampWeights(res, ip, new Map())
    res.setHeader('Retry-After', seconds(until - t))
    sendJson(res, 418, {
      code: -1003,
      msg: `Way too many requests; IP banned until ${until}. Please use the websocket for live updates to avoid bans.`,
    })
    return false
  }

  function stateOf(ip: string): IpState {
    let s = ips.get(ip)
    if (!s) {
      s = { limitedUntil: 0, bannedUntil: 0, bans: 0 }
      ips.set(ip, s)
    }
    return s
  }

  /** Counts `charges` (all per IP or all per account); answers a 429. */
  function apply(
    req: IncomingMessage,
    res: ServerResponse,
    charges: readonly RequestCharge[],
  ): boolean {
    const t = now()
    const ip = clientIp(req)
    const r = limiter.charge(ip, charges)
    stampWeights(res, ip, r.used)
    for (const c of charges) {
      const l = limits.find((x) => x.id === c.limit)
      const header = l?.per === 'account' ? asterLimitHeader(l) : null
      if (header) res.setHeader(header, String(r.used.get(c.limit) ?? 0))
    }
    if (r.ok) return true
    // the ban is the IP limits' sanction ("IP Limits" section)
    if (r.limit.per === 'ip') stateOf(ip).limitedUntil = t + r.retryAfterMs
    res.setHeader('Retry-After', seconds(r.retryAfterMs))
    sendJson(res, 429, refusal(r.limit))
    return false
  }

  return {
    rateLimits: asterRateLimitEntries(limits),
    stamp(req, res) {
      stampWeights(res, clientIp(req), new Map())
    },
    admit(req, res, method, path, params) {
      const t = now()
      const ip = clientIp(req)
      const s = stateOf(ip)
      if (enforce && t < s.bannedUntil) return banned(res, ip, s.bannedUntil, t)
      if (enforce && t < s.limitedUntil) {
        s.bans++
        const ms = Math.min(FIRST_BAN_MS * 2 ** (s.bans - 1), MAX_BAN_MS)
        s.bannedUntil = t + ms
        return banned(res, ip, s.bannedUntil, t)
      }
      return apply(
        req,
        res,
        asterRequestCharges(method, path, params, null, limits),
      )
    },
    admitOrders(req, res, method, path, params, user) {
      const charges = asterRequestCharges(method, path, params, user, limits)
      const perAccount = charges.filter((c) => c.account !== undefined)
      return perAccount.length === 0 || apply(req, res, perAccount)
    },
    usage: () => limiter.usage(),
  }
}
