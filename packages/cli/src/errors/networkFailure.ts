import { EXIT } from './exitCodes.js'
import type { FailureReport } from './failureReport.js'

type Reason = 'refused' | 'dns' | 'timeout' | 'reset' | 'protocol' | 'other'

const CAUSE_BY_CODE: Record<string, Reason> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
}

const SAID: Record<Reason, string> = {
  refused: 'connection refused',
  dns: 'host not found',
  timeout: 'no answer in time',
  reset: 'connection reset',
  protocol: 'the answer was not JSON',
  other: 'network error',
}

function reasonOf(err: Error): Reason | undefined {
  const named = (err as { reason?: unknown }).reason
  if (err.name === 'DnNetworkError' && typeof named === 'string')
    return (named in SAID ? named : 'other') as Reason
  if (err.name === 'DnProtocolError' || err instanceof SyntaxError)
    return 'protocol'
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return 'timeout'
  const cause = (err as { cause?: { code?: unknown } }).cause
  const code = typeof cause?.code === 'string' ? cause.code : undefined
  if (code && code in CAUSE_BY_CODE) return CAUSE_BY_CODE[code]
  if (err instanceof TypeError && err.message === 'fetch failed') return 'other'
  return undefined
}

/**
 * A failure to talk to the service at all, named with the URL, the cause
 * and the next step; undefined for anything else.
 */
export function describeNetworkFailure(
  err: unknown,
  url: string,
): FailureReport | undefined {
  if (!(err instanceof Error)) return undefined
  const reason = reasonOf(err)
  if (!reason) return undefined
  // the faucet and the client's own errors name the URL they called
  const named = (err as { url?: unknown }).url
  if (typeof named === 'string') url = new URL(named).origin
  const local = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(url)
  const hint =
    reason === 'protocol'
      ? `is ${url} the dn API? check --url, DN_URL or the profile's url`
      : local
        ? 'is `dn up` running? start it with `npm start`, or point at another service with --url or DN_URL'
        : 'check the address and that the service is up; change it with --url or DN_URL'
  return {
    error: `cannot reach the service at ${url} (${SAID[reason]})`,
    code: reason === 'timeout' ? 'timeout' : 'network_error',
    status: null,
    requestId: null,
    hint,
    exitCode: reason === 'timeout' ? EXIT.timeout : EXIT.network,
  }
}
