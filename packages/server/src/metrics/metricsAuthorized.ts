import { createHash, timingSafeEqual } from 'node:crypto'

const digest = (s: string) => createHash('sha256').update(s).digest()

/**
 * Whether a scrape may read `/metrics`: always when no token is set (the
 * usual Prometheus setup, on a private address), else only with
 * `Authorization: Bearer <token>` (compared in constant time).
 */
export function metricsAuthorized(
  authorization: string | undefined,
  token: string | undefined,
): boolean {
  if (!token) return true
  const given = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
  return given !== undefined && timingSafeEqual(digest(given), digest(token))
}
