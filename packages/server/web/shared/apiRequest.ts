/** An answer of the API that was not 2xx: its `{error, code}` body and status. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * One JSON request to this server (same origin, so no CORS and no base
 * URL to configure). A non-2xx answer throws its `{error, code}`; a
 * network failure throws with code `network`.
 */
export async function apiRequest<T>(
  method: 'GET' | 'POST',
  path: string,
  o: {
    readonly headers?: Record<string, string>
    readonly body?: unknown
  } = {},
): Promise<T> {
  let res: Response
  try {
    res = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...o.headers,
      },
      ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
    })
  } catch (err) {
    throw new ApiRequestError(
      0,
      'network',
      `the server did not answer: ${String(err)}`,
    )
  }
  const text = await res.text()
  let body: unknown = null
  try {
    body = text === '' ? null : JSON.parse(text)
  } catch {
    throw new ApiRequestError(
      res.status,
      'protocol',
      `not JSON (HTTP ${res.status})`,
    )
  }
  if (!res.ok) {
    const e = (body ?? {}) as { error?: unknown; code?: unknown }
    throw new ApiRequestError(
      res.status,
      typeof e.code === 'string' ? e.code : 'http_error',
      typeof e.error === 'string' ? e.error : `HTTP ${res.status}`,
    )
  }
  return body as T
}
