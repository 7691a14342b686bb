/**
 * What a failed `fetch` says about the request: whether it can have
 * reached the venue. Every adapter's transport decides by these whether a
 * failure is VenueUnavailableError (nothing sent) or uncertain.
 *
 * @module
 */

/** Error codes that mean the connection was never made: nothing was sent. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
])

/** True when the error proves the request never left this process. */
export function failedBeforeSending(err: unknown): boolean {
  let e: unknown = err
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string') return NOT_SENT_CODES.has(code)
    // several addresses tried (IPv6 and IPv4): none of them connected
    const errors = (e as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0) {
      return errors.every(failedBeforeSending)
    }
    e = (e as { cause?: unknown }).cause
  }
  return false
}

/** True when the request was abandoned on our timeout. */
export function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name
  return name === 'TimeoutError' || name === 'AbortError'
}
