import { DnNetworkError, DnProtocolError, type NetworkReason } from '@dn/client'
import { EXIT } from './exitCodes.js'
import type { FailureReport } from './failureReport.js'

const SAID: Record<NetworkReason | 'protocol', string> = {
  refused: 'connection refused',
  dns: 'host not found',
  timeout: 'no answer in time',
  reset: 'connection reset',
  protocol: 'the answer was not JSON',
  other: 'network error',
}

/**
 * A failure to talk to the service at all, named with the URL, the cause
 * and the next step; undefined for anything else.
 */
export function describeNetworkFailure(
  err: unknown,
  url: string,
): FailureReport | undefined {
  let reason: NetworkReason | 'protocol'
  let at = url
  if (err instanceof DnNetworkError) {
    reason = err.reason
    at = new URL(err.url).origin
  } else if (err instanceof DnProtocolError) {
    reason = 'protocol'
  } else {
    return undefined
  }
  const local = /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]?/.test(at)
  const hint =
    reason === 'protocol'
      ? `is ${at} the dn API? check --url, DN_URL or the profile's url`
      : local
        ? 'is `dn up` running? start it with `npm start`, or point at another service with --url or DN_URL'
        : 'check the address and that the service is up; change it with --url or DN_URL'
  return {
    error: `cannot reach the service at ${at} (${SAID[reason]})`,
    code: reason === 'timeout' ? 'timeout' : 'network_error',
    status: null,
    requestId: null,
    hint,
    exitCode: reason === 'timeout' ? EXIT.timeout : EXIT.network,
  }
}
