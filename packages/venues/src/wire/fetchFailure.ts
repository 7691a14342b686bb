/**
 * What a failed `fetch` says about the request: whether it can have
 * reached the venue. Every adapter's transport decides by these whether a
 * failure is VenueUnavailableError (nothing sent) or uncertain.
 *
 * Only what was seen against real loopback servers, with Node 20's fetch
 * (undici 6.24) and npm undici 7, counts as proof
 * (`fetchFailure.test.ts`). undici writes a request only once its
 * connection is up (TCP, then TLS), so a failure of the connection itself
 * proves nothing was written:
 * - `syscall: 'connect'`: refused, or reset while connecting
 *   (`connect ECONNRESET`);
 * - `syscall: 'getaddrinfo'`, ENOTFOUND / EAI_AGAIN: no address;
 * - UND_ERR_CONNECT_TIMEOUT: undici's connect timeout (TCP and TLS);
 * - ECONNRESET "Client network socket disconnected before secure TLS
 *   connection was established": the peer closed during the handshake;
 * - every address of an AggregateError (several addresses tried) failed
 *   one of these ways; ERR_INVALID_URL: nothing was even dialled.
 *
 * Not proof: `other side closed` (UND_ERR_SOCKET) and `read ECONNRESET`
 * also follow a written request; the `bytesWritten` an UND_ERR_SOCKET
 * carries counts every request of a kept-alive socket. A reset during the
 * TLS handshake after our ClientHello (`read ECONNRESET`) and our own
 * timeout before the request was written are proved by undici's
 * diagnostics instead (`requestWrites.ts`).
 *
 * @module
 */

/** Codes that only a connect or a name lookup produces. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_INVALID_URL',
])

/** Node's words (`_tls_wrap`) for a socket closed mid-handshake. */
const TLS_NOT_ESTABLISHED = 'before secure TLS connection was established'

/** True when the error proves the request never left this process. */
export function failedBeforeSending(err: unknown): boolean {
  let e: unknown = err
  for (let depth = 0; depth < 5 && e && typeof e === 'object'; depth++) {
    // several addresses tried (IPv6 and IPv4): none of them connected
    const errors = (e as { errors?: unknown }).errors
    if (Array.isArray(errors) && errors.length > 0) {
      return errors.every(failedBeforeSending)
    }
    const { code, syscall, message } = e as {
      code?: unknown
      syscall?: unknown
      message?: unknown
    }
    if (typeof code === 'string') {
      return (
        syscall === 'connect' ||
        syscall === 'getaddrinfo' ||
        NOT_SENT_CODES.has(code) ||
        (code === 'ECONNRESET' &&
          typeof message === 'string' &&
          message.includes(TLS_NOT_ESTABLISHED))
      )
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
