import {
  AccountsQuery,
  BalanceList,
  listBalances,
  listPositions,
  PositionList,
} from '@dn/core'
import { bearerRead } from './bearerHandlers.js'
import { BEARER_READ_ERRORS } from './errorCodeSets.js'
import { defineRoute } from './routeSpec.js'

const read = {
  method: 'GET',
  tag: 'Accounts',
  auth: 'apiKey',
  // the perp budget, as the markets read: what a direct order is sized from
  family: 'perp',
  idempotent: false,
  request: { query: AccountsQuery },
  errors: [...BEARER_READ_ERRORS, 'venue_not_granted'],
} as const

/**
 * Positions and balances of the key owner's bound accounts, served from
 * the worker's latest account snapshots (never a venue call), each with
 * the time and age of its read.
 */
export const ACCOUNT_ROUTES = [
  defineRoute(
    {
      ...read,
      path: '/v1/positions',
      operationId: 'listPositions',
      summary:
        "The positions of the owner's bound accounts on granted venues, as last read",
      success: {
        status: 200,
        schema: PositionList,
        description:
          'Every bound account on the venues asked; one not read yet has readAt null and no positions',
      },
      components: { PositionList },
    },
    (env) =>
      bearerRead(env, (key, { query }) =>
        listPositions(env.deps, key, query.venue),
      ),
  ),
  defineRoute(
    {
      ...read,
      path: '/v1/balances',
      operationId: 'listBalances',
      summary:
        "The collateral of the owner's bound accounts on granted venues, as last read",
      success: {
        status: 200,
        schema: BalanceList,
        description:
          'Every bound account on the venues asked; one not read yet has null readAt and amounts',
      },
      components: { BalanceList },
    },
    (env) =>
      bearerRead(env, (key, { query }) =>
        listBalances(env.deps, key, query.venue),
      ),
  ),
]
