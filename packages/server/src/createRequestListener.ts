import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { AppError, NotFoundError } from '@dn/core'
import { errorResponse } from './http/errorResponse.js'
import { bodyText, type HttpResponse } from './http/httpResponse.js'
import { discardBody } from './http/readJsonBody.js'
import { createRouter, type RequestNote, type Route } from './router.js'
import { servedRoutes } from './routes/routeTable.js'
import type { ServerDeps } from './serverDeps.js'

class MethodNotAllowedError extends AppError {
  override name = 'MethodNotAllowedError'
  constructor() {
    super('method_not_allowed', 'method not allowed on this route')
  }
}

/**
 * The node:http adapter: routes a request, runs its handler, writes the
 * answer (JSON unless the handler names another content type, as pages do)
 * with `X-Request-Id`. Handlers never touch the response object.
 */
export function createRequestListener(
  deps: ServerDeps,
  routes: readonly Route[] = servedRoutes(deps),
): (req: IncomingMessage, res: ServerResponse) => void {
  const router = createRouter(routes)
  return (req, res) => {
    const requestId = randomUUID()
    const started = performance.now()
    const note: RequestNote = {}
    void handle(req, requestId, note).then(({ out, route }) => {
      discardBody(req)
      const text = bodyText(out)
      res.writeHead(out.status, {
        'content-type': 'application/json; charset=utf-8',
        // a 304 has no body, and its length would be the 200's
        ...(out.status === 304
          ? {}
          : { 'content-length': Buffer.byteLength(text) }),
        'x-request-id': requestId,
        'cache-control': 'no-store',
        ...out.headers,
      })
      res.end(text)
      const ms = performance.now() - started
      const method = req.method ?? 'GET'
      deps.logger.info('request', {
        requestId,
        apiKeyId: note.apiKeyId ?? null,
        method,
        route: route ?? null,
        path: (req.url ?? '').split('?')[0],
        status: out.status,
        ms: Math.round(ms * 10) / 10,
      })
      deps.metrics?.request(route ?? 'unmatched', method, out.status, ms)
    })
  }

  /** The answer, and the template of the route that gave it. */
  async function handle(
    req: IncomingMessage,
    requestId: string,
    note: RequestNote,
  ): Promise<{ out: HttpResponse; route?: string }> {
    let route: string | undefined
    const answer = (out: HttpResponse) =>
      route === undefined ? { out } : { out, route }
    try {
      const url = new URL(req.url ?? '/', 'http://localhost')
      const method = req.method ?? 'GET'
      const match = router.match(method, url.pathname)
      if (match.kind === 'not_found') {
        throw new NotFoundError(
          'route_not_found',
          `no route ${method} ${url.pathname}`,
        )
      }
      if (match.kind === 'method_not_allowed') {
        const e = errorResponse(
          new MethodNotAllowedError(),
          requestId,
          deps.logger,
        )
        return answer({
          ...e,
          headers: { ...e.headers, allow: match.allow.join(', ') },
        })
      }
      route = match.route.pattern
      const out = await match.route.handler({
        req,
        requestId,
        method,
        path: url.pathname,
        params: match.params,
        query: url.searchParams,
        ip: req.socket.remoteAddress ?? 'unknown',
        note,
      })
      return answer(out)
    } catch (err) {
      return answer(errorResponse(err, requestId, deps.logger))
    }
  }
}
