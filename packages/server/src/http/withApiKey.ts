import {
  type ApiKeyRecord,
  authenticateApiKey,
  msToIso,
  RateLimitedError,
  type RateLimitHit,
  type RequestFamily,
  UnauthorizedError,
} from '@dn/core'
import type { Handler, RequestContext } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import { errorResponse } from './errorResponse.js'
import type { HttpResponse } from './httpResponse.js'

/** A route's answer plus what its request log row should say. */
export interface KeyedResponse extends HttpResponse {
  readonly replayed?: boolean
  readonly taskId?: string | null
  readonly orderId?: string | null
}

type KeyedHandler = (
  ctx: RequestContext,
  key: ApiKeyRecord,
) => Promise<KeyedResponse>

function limitHeaders(
  limit: number,
  hit: RateLimitHit,
): Record<string, string> {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(hit.remaining),
  }
  if (!hit.allowed) {
    headers['retry-after'] = String(Math.max(1, Math.ceil(hit.resetMs / 1000)))
  }
  return headers
}

/**
 * Wraps a key-authenticated route: Bearer auth (failures limited per IP so
 * key guessing cannot spend a key's budget), the 120/min budget of the
 * route family, rate-limit headers on every answer, and a request log row
 * for commands (`action` set).
 */
export function withApiKey(
  deps: ServerDeps,
  family: RequestFamily,
  action: string | null,
  handler: KeyedHandler,
): Handler {
  return async (ctx) => {
    let key: ApiKeyRecord
    try {
      key = await authenticateApiKey(
        { keys: deps.apiKeys, env: deps.env, pepper: deps.pepper },
        ctx.req.headers.authorization,
      )
    } catch (err) {
      // Only failed credentials spend the address's budget; a storage
      // failure is not the caller's fault.
      const hit =
        err instanceof UnauthorizedError
          ? await deps.authFailureLimiter.hit(`ip:${ctx.ip}`)
          : {
              allowed: true,
              remaining: deps.authFailureLimiter.limit,
              resetMs: 0,
            }
      if (!hit.allowed) deps.metrics?.rateLimited('service', 'auth_failures')
      const failure = errorResponse(
        hit.allowed
          ? err
          : new RateLimitedError(
              hit.resetMs / 1000,
              'too many failed authentications from this address',
            ),
        ctx.requestId,
        deps.logger,
      )
      return {
        ...failure,
        headers: {
          ...failure.headers,
          ...limitHeaders(deps.authFailureLimiter.limit, hit),
        },
      }
    }

    ctx.note.apiKeyId = key.id
    const hit = await deps.rateLimiter.hit(`${family}:${key.id}`)
    let res: KeyedResponse
    let code: string | null = null
    if (!hit.allowed) {
      deps.metrics?.rateLimited('service', family)
      const e = errorResponse(
        new RateLimitedError(
          hit.resetMs / 1000,
          `rate limit of ${deps.rateLimiter.limit} requests per minute exceeded for this key`,
        ),
        ctx.requestId,
        deps.logger,
      )
      res = e
      code = e.code
    } else {
      try {
        res = await handler(ctx, key)
        if (res.status >= 400) code = errorCodeOf(res.body)
      } catch (err) {
        const e = errorResponse(err, ctx.requestId, deps.logger)
        res = e
        code = e.code
      }
    }
    if (action) writeLog(deps, family, action, ctx, key, res, code)
    return {
      ...res,
      headers: { ...res.headers, ...limitHeaders(deps.rateLimiter.limit, hit) },
    }
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function uuidOrNull(value: string | undefined): string | null {
  return value !== undefined && UUID.test(value) ? value : null
}

/** The code of an error answer a handler returned (a replayed outcome). */
function errorCodeOf(body: unknown): string | null {
  const code = (body as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : null
}

function writeLog(
  deps: ServerDeps,
  family: RequestFamily,
  action: string,
  ctx: RequestContext,
  key: ApiKeyRecord,
  res: KeyedResponse,
  code: string | null,
): void {
  deps.requestLogs.write({
    id: ctx.requestId,
    apiKeyId: key.id,
    family,
    action,
    method: ctx.method,
    path: ctx.path,
    taskId: res.taskId ?? uuidOrNull(ctx.params.taskId),
    orderId: res.orderId ?? uuidOrNull(ctx.params.orderId),
    httpStatus: res.status,
    errorCode: code,
    replayed: res.replayed ?? false,
    createdAt: msToIso(deps.clock.now()),
  })
}
