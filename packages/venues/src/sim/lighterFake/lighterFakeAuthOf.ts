import type { IncomingMessage } from 'node:http'

/**
 * The auth token of a read, where the spec lets a client put it: the
 * `Authorization` header, or the query's `authorization` (what
 * `zklighter-perps` sends) or `auth` ("made optional to support header
 * auth clients"). The header wins, then `authorization`. Empty: none.
 */
export function lighterFakeAuthOf(
  req: IncomingMessage,
  query: URLSearchParams,
): string {
  return (
    req.headers.authorization ||
    query.get('authorization') ||
    query.get('auth') ||
    ''
  )
}
