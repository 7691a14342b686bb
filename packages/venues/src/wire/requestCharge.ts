/**
 * What a venue request costs against the venue's published rate limits.
 * Each venue describes its limits once (`<venue>/limits/`); the adapters'
 * budget and the venue fakes both count with that description, so the
 * fakes refuse exactly what the venue would.
 *
 * @module
 */

/** Who a published limit is counted for. */
export type LimitPer = 'ip' | 'account'

/** One published rate limit of a venue. */
export interface PublishedLimit {
  /** stable id, e.g. `weight`, `orders`, `requests` */
  readonly id: string
  /** units (weight or requests) allowed in any window */
  readonly capacity: number
  readonly windowMs: number
  /** counted per client IP, or per venue account (L1 address, account id) */
  readonly per: LimitPer
}

/**
 * One limit a request counts against. `account` names the account for a
 * per-account limit (lowercased address or account id) and is absent for
 * a per-IP one.
 */
export interface RequestCharge {
  readonly limit: string
  readonly weight: number
  readonly account?: string | undefined
}

/** The bucket a charge is counted in: the limit, per IP or per account. */
export function chargeBucket(charge: RequestCharge): string {
  return charge.account === undefined
    ? charge.limit
    : `${charge.limit}|${charge.account}`
}
