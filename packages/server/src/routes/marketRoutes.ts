import { listMarkets, MarketList, MarketsQuery } from '@dn/core'
import { bearerRead } from './bearerHandlers.js'
import { BEARER_READ_ERRORS } from './errorCodeSets.js'
import { defineRoute } from './routeSpec.js'

/**
 * Market reads. They spend the perp budget: rules and quotes are what a
 * direct order is sized and priced from.
 */
export const MARKET_ROUTES = [
  defineRoute(
    {
      method: 'GET',
      path: '/v1/markets',
      operationId: 'listMarkets',
      summary: "A granted venue's listed markets: rules and current quote",
      tag: 'Markets',
      auth: 'apiKey',
      family: 'perp',
      idempotent: false,
      request: { query: MarketsQuery },
      success: {
        status: 200,
        schema: MarketList,
        description:
          'Every listed market; quote fields are null where the venue has no quote now',
      },
      errors: [
        ...BEARER_READ_ERRORS,
        'venue_not_granted',
        'market_data_unavailable',
      ],
      components: { MarketList },
    },
    (env) =>
      bearerRead(env, (key, { query }) =>
        listMarkets(env.deps, key, query.venue),
      ),
  ),
]
