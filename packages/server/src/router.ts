import type { IncomingMessage } from 'node:http'
import type { HttpResponse } from './http/httpResponse.js'

export interface RequestContext {
  readonly req: IncomingMessage
  readonly requestId: string
  readonly method: string
  /** path without the query string */
  readonly path: string
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  readonly ip: string
  /** what the handler learnt that the request's log line should say */
  readonly note: RequestNote
}

/**
 * Filled in by a handler as it learns it (the API key once authenticated),
 * read by the adapter when it writes the request's log line.
 */
export interface RequestNote {
  /** the authenticated key's id (never its secret) */
  apiKeyId?: string
}

export type Handler = (ctx: RequestContext) => Promise<HttpResponse>

export interface Route {
  readonly method: 'GET' | 'POST'
  /** `/v1/delta-neutral/tasks/{taskId}` */
  readonly pattern: string
  readonly handler: Handler
}

type RouteMatch =
  | {
      readonly kind: 'found'
      readonly route: Route
      readonly params: Record<string, string>
    }
  | { readonly kind: 'method_not_allowed'; readonly allow: string[] }
  | { readonly kind: 'not_found' }

interface Compiled {
  readonly route: Route
  readonly segments: readonly string[]
}

/** A tiny segment router: literal segments and `{name}` captures. */
export function createRouter(routes: readonly Route[]): {
  match(method: string, path: string): RouteMatch
} {
  const compiled: Compiled[] = routes.map((route) => ({
    route,
    segments: route.pattern.split('/').slice(1),
  }))
  return {
    match(method, path) {
      const parts = path.split('/').slice(1)
      // every route whose shape fits, with how many segments were captures
      const fits: {
        route: Route
        params: Record<string, string>
        captures: number
      }[] = []
      for (const c of compiled) {
        if (c.segments.length !== parts.length) continue
        const params: Record<string, string> = {}
        let ok = true
        for (let i = 0; i < parts.length && ok; i++) {
          const seg = c.segments[i] as string
          const part = parts[i] as string
          if (seg.startsWith('{')) params[seg.slice(1, -1)] = part
          else ok = seg === part
        }
        if (ok)
          fits.push({
            route: c.route,
            params,
            captures: Object.keys(params).length,
          })
      }
      // a literal segment wins over a capture: `/prepare` is not a binding id
      const fewest = Math.min(...fits.map((f) => f.captures))
      const best = fits.filter((f) => f.captures === fewest)
      const found = best.find((f) => f.route.method === method)
      if (found)
        return { kind: 'found', route: found.route, params: found.params }
      return best.length > 0
        ? { kind: 'method_not_allowed', allow: best.map((f) => f.route.method) }
        : { kind: 'not_found' }
    },
  }
}
