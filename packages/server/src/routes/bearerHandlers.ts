import type { ApiKeyRecord, Repos, RequestFamily } from '@dn/core'
import { json } from '../http/httpResponse.js'
import { idempotentCommand } from '../http/idempotentCommand.js'
import { withApiKey } from '../http/withApiKey.js'
import type { Handler, RequestContext } from '../router.js'
import { type RouteInput, routeInput } from './routeInput.js'
import type { RouteEnv, RouteSpec } from './routeSpec.js'

function familyOf(route: RouteSpec): RequestFamily {
  if (route.family === undefined) {
    throw new TypeError(`${route.operationId}: a Bearer route needs a family`)
  }
  return route.family
}

/**
 * A Bearer read: key, budget, declared input, then `read`; answers the
 * declared success status.
 */
export function bearerRead<S extends RouteSpec>(
  { deps, route }: RouteEnv<S>,
  read: (
    key: ApiKeyRecord,
    input: RouteInput<S>,
    ctx: RequestContext,
  ) => Promise<unknown>,
): Handler {
  return withApiKey(
    deps,
    familyOf(route),
    route.action ?? null,
    async (ctx, key) =>
      json(
        route.success.status,
        await read(key, await routeInput(ctx, route), ctx),
      ),
  )
}

/**
 * A Bearer command under the owner's Idempotency-Key scope: key, budget,
 * declared input, `prepare` outside the transaction, `run` inside it;
 * answers the declared success status.
 */
export function bearerCommand<S extends RouteSpec, P>(
  { deps, route }: RouteEnv<S>,
  command: {
    readonly prepare?: (key: ApiKeyRecord, input: RouteInput<S>) => Promise<P>
    readonly run: (
      tx: Repos,
      key: ApiKeyRecord,
      input: RouteInput<S>,
      prepared: P,
    ) => Promise<unknown>
  },
): Handler {
  return withApiKey(
    deps,
    familyOf(route),
    route.action ?? null,
    async (ctx, key) => {
      const input = await routeInput(ctx, route)
      return idempotentCommand(
        deps,
        ctx,
        `owner:${key.owner}`,
        input.raw,
        route.success.status,
        {
          prepare: async () =>
            command.prepare ? command.prepare(key, input) : (undefined as P),
          run: (tx, prepared) => command.run(tx, key, input, prepared),
        },
      )
    },
  )
}
