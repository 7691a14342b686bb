import {
  type ApiKeyRecord,
  EmptyBody,
  parseInput,
  type Repos,
  type RequestFamily,
} from '@dn/core'
import type { Handler } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import { idempotentCommand } from './idempotentCommand.js'
import { readJsonBody } from './readJsonBody.js'
import { pathId, requireNoQuery } from './requestInput.js'
import { withApiKey } from './withApiKey.js'

/**
 * A command on one resource that takes `{}` (cancel, close): path id, no
 * query, an empty body, the Idempotency-Key, then `run` in the transaction.
 */
export function emptyBodyCommand(
  deps: ServerDeps,
  family: RequestFamily,
  action: string,
  idName: 'taskId' | 'orderId',
  run: (tx: Repos, key: ApiKeyRecord, id: string) => Promise<unknown>,
): Handler {
  return withApiKey(deps, family, action, async (ctx, key) => {
    const id = pathId(ctx, idName)
    requireNoQuery(ctx)
    const body = parseInput(
      EmptyBody,
      await readJsonBody(ctx.req),
      'invalid_body',
    )
    return idempotentCommand(deps, ctx, `owner:${key.owner}`, body, {
      prepare: async () => undefined,
      run: async (tx) => ({
        status: 202,
        body: JSON.stringify(await run(tx, key, id)),
      }),
    })
  })
}
