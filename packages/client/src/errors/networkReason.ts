/** Why a call never got an answer, as far as the socket layer says. */
export type NetworkReason = 'refused' | 'dns' | 'timeout' | 'reset' | 'other'

const BY_CODE: Readonly<Record<string, NetworkReason>> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ETIMEDOUT: 'timeout',
  ECONNRESET: 'reset',
  EPIPE: 'reset',
  UND_ERR_SOCKET: 'reset',
  UND_ERR_CLOSED: 'reset',
}

/**
 * Reads the reason from a failed fetch. Node's fetch throws
 * `TypeError: fetch failed` and hides the socket error in `cause` (sometimes
 * two levels down), and an expired `AbortSignal.timeout` rejects with a
 * `TimeoutError`, so the whole cause chain is searched.
 */
export function networkReason(err: unknown): NetworkReason {
  for (let e = err, depth = 0; e && depth < 5; depth++) {
    const { name, code, cause } = e as {
      name?: unknown
      code?: unknown
      cause?: unknown
    }
    if (name === 'TimeoutError') return 'timeout'
    if (typeof code === 'string' && BY_CODE[code]) return BY_CODE[code]
    e = cause
  }
  return 'other'
}
