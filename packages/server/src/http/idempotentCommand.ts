import {
  type IdempotentCommand,
  msToIso,
  normalizeIdempotencyKey,
  requestFingerprint,
  runIdempotent,
  WORK_CHANNEL,
} from '@dn/core'
import type { RequestContext } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import type { KeyedResponse } from './withApiKey.js'

/**
 * Runs a command under the request's Idempotency-Key, scoped to `scope`
 * (`owner:<address>` for key routes, `binding:<id>` for binding submit).
 * A replay carries `Idempotent-Replayed: true`.
 */
export async function idempotentCommand<P>(
  deps: ServerDeps,
  ctx: RequestContext,
  scope: string,
  body: unknown,
  command: IdempotentCommand<P>,
): Promise<KeyedResponse> {
  const key = normalizeIdempotencyKey(ctx.req.headers['idempotency-key'])
  const outcome = await runIdempotent(
    deps.store,
    {
      scope,
      key,
      method: ctx.method,
      path: ctx.path,
      fingerprint: requestFingerprint(ctx.method, ctx.path, body),
      createdAt: msToIso(deps.clock.now()),
    },
    command,
  )
  if (!outcome.replayed && outcome.status < 300) {
    // the worker picks the command up now instead of on its next round
    deps.store.notify(WORK_CHANNEL).catch((err: unknown) =>
      deps.logger.error('work notification failed', {
        requestId: ctx.requestId,
        error: err instanceof Error ? err.message : String(err),
      }),
    )
  }
  return {
    status: outcome.status,
    body: outcome.body,
    replayed: outcome.replayed,
    ...(outcome.replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}),
    ...idsOf(outcome.body),
  }
}

function idsOf(body: string): { taskId?: string; orderId?: string } {
  try {
    const parsed = JSON.parse(body) as { taskId?: unknown; orderId?: unknown }
    return {
      ...(typeof parsed.taskId === 'string' ? { taskId: parsed.taskId } : {}),
      ...(typeof parsed.orderId === 'string'
        ? { orderId: parsed.orderId }
        : {}),
    }
  } catch {
    return {}
  }
}
