import {
  type IdempotentCommand,
  msToIso,
  normalizeIdempotencyKey,
  type Repos,
  requestFingerprint,
  runIdempotent,
  WORK_CHANNEL,
} from '@dn/core'
import type { RequestContext } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import type { KeyedResponse } from './withApiKey.js'

/** A command whose answer is a JSON value under one success status. */
interface ServerCommand<P> {
  readonly prepare: IdempotentCommand<P>['prepare']
  readonly run: (tx: Repos, prepared: P) => Promise<unknown>
}

/**
 * Runs a command under the request's Idempotency-Key, scoped to `scope`
 * (`owner:<address>` for key routes, `binding:<id>` for binding submit).
 * The answer is serialized once, to be stored; the response writes that
 * text and the request log reads ids from the value. A replay carries
 * `Idempotent-Replayed: true`.
 */
export async function idempotentCommand<P>(
  deps: ServerDeps,
  ctx: RequestContext,
  scope: string,
  body: unknown,
  status: number,
  command: ServerCommand<P>,
): Promise<KeyedResponse> {
  const key = normalizeIdempotencyKey(ctx.req.headers['idempotency-key'])
  let value: unknown
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
    {
      prepare: command.prepare,
      run: async (tx, prepared) => {
        value = await command.run(tx, prepared)
        // the worker picks the command up now instead of on its next
        // round: sent with the commit, once for a shared one
        await deps.store.notify(WORK_CHANNEL)
        return { status, body: JSON.stringify(value) }
      },
    },
  )
  // a fresh success is the value run returned; anything else (a replay, a
  // stored error outcome) is read back from the stored text
  const answer =
    !outcome.replayed && outcome.status === status
      ? value
      : JSON.parse(outcome.body)
  return {
    status: outcome.status,
    body: answer,
    text: outcome.body,
    replayed: outcome.replayed,
    ...(outcome.replayed ? { headers: { 'idempotent-replayed': 'true' } } : {}),
    ...idsOf(answer),
  }
}

function idsOf(body: unknown): { taskId?: string; orderId?: string } {
  const b = (body ?? {}) as { taskId?: unknown; orderId?: unknown }
  return {
    ...(typeof b.taskId === 'string' ? { taskId: b.taskId } : {}),
    ...(typeof b.orderId === 'string' ? { orderId: b.orderId } : {}),
  }
}
