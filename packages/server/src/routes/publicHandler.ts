import { json } from '../http/httpResponse.js'
import type { Handler, RequestContext } from '../router.js'
import { type RouteInput, routeInput } from './routeInput.js'
import type { RouteEnv, RouteSpec } from './routeSpec.js'

/**
 * A route without an API key (wallet-signed or public): declared input,
 * then `answer`; answers the declared success status.
 */
export function publicHandler<S extends RouteSpec>(
  { route }: RouteEnv<S>,
  answer: (input: RouteInput<S>, ctx: RequestContext) => Promise<unknown>,
): Handler {
  return async (ctx) =>
    json(route.success.status, await answer(await routeInput(ctx, route), ctx))
}
