import {
  CreatePerpOrderBody,
  cancelPerpOrder,
  createPerpOrder,
  EmptyBody,
  EmptyQuery,
  getPerpOrder,
  ListQuery,
  listPerpOrders,
  OrderAck,
  PerpOrderList,
  PerpOrderResponse,
  preparePerpOrder,
  prepareResolvePerpOrder,
  ResolveAck,
  ResolvePerpOrderBody,
  resolvePerpOrder,
} from '@dn/core'
import { bearerCommand, bearerRead } from './bearerHandlers.js'
import { KEY_COMMAND_ERRORS, KEY_READ_ERRORS } from './errorCodeSets.js'
import { defineRoute } from './routeSpec.js'

const BASE = '/v1/perp/orders'

const read = {
  method: 'GET',
  tag: 'Perpetual orders',
  auth: 'apiKey',
  family: 'perp',
  idempotent: false,
  errors: KEY_READ_ERRORS,
} as const

const command = {
  method: 'POST',
  tag: 'Perpetual orders',
  auth: 'apiKey',
  family: 'perp',
  idempotent: true,
  errors: KEY_COMMAND_ERRORS,
} as const

/** Direct single-venue orders (perp budget and request log). */
export const PERP_ORDER_ROUTES = [
  defineRoute(
    {
      ...read,
      path: BASE,
      operationId: 'listPerpOrders',
      summary: "List the owner's orders on venues the key grants",
      request: { query: ListQuery },
      success: { status: 200, schema: PerpOrderList, description: 'One page' },
    },
    (env) =>
      bearerRead(env, (key, input) =>
        listPerpOrders(env.deps.store, key, input.query),
      ),
  ),
  defineRoute(
    {
      ...command,
      path: BASE,
      operationId: 'createPerpOrder',
      action: 'order.create',
      summary: 'Place a direct perpetual order on one venue',
      request: { body: CreatePerpOrderBody, query: EmptyQuery },
      success: { status: 202, schema: OrderAck, description: 'Order queued' },
      errors: [
        ...KEY_COMMAND_ERRORS,
        'below_venue_minimum',
        'invalid_tick',
        'market_not_listed',
        'size_exceeds_key_limit',
      ],
    },
    (env) =>
      bearerCommand(env, {
        prepare: (key, input) => preparePerpOrder(env.deps, key, input.body),
        run: async (tx, key, _input, prepared) => {
          const order = await createPerpOrder(tx, env.deps, key, prepared)
          return { orderId: order.id, status: 'pending' }
        },
      }),
  ),
  defineRoute(
    {
      ...read,
      path: `${BASE}/{orderId}`,
      operationId: 'getPerpOrder',
      summary: 'Read one order',
      request: { query: EmptyQuery },
      success: {
        status: 200,
        schema: PerpOrderResponse,
        description: 'The order',
      },
    },
    (env) =>
      bearerRead(env, (key, input) =>
        getPerpOrder(env.deps.store, key, input.params.orderId as string),
      ),
  ),
  defineRoute(
    {
      ...command,
      path: `${BASE}/{orderId}/cancel`,
      operationId: 'cancelPerpOrder',
      action: 'order.cancel',
      summary: 'Cancel an order (locally, or by queueing a venue cancel)',
      request: { body: EmptyBody, query: EmptyQuery },
      success: {
        status: 202,
        schema: OrderAck,
        description: '`cancelled`, or `cancel_queued` for a submitted order',
      },
      errors: [...KEY_COMMAND_ERRORS, 'order_not_cancellable'],
    },
    (env) =>
      bearerCommand(env, {
        run: (tx, key, input) =>
          cancelPerpOrder(tx, env.deps, key, input.params.orderId as string),
      }),
  ),
  defineRoute(
    {
      ...command,
      path: `${BASE}/{orderId}/resolve`,
      operationId: 'resolvePerpOrder',
      action: 'order.resolve',
      summary: 'Resolve an expired `unknown` order by operator attestation',
      request: { body: ResolvePerpOrderBody, query: EmptyQuery },
      success: {
        status: 200,
        schema: ResolveAck,
        description: 'Resolution stored permanently',
      },
      errors: [
        ...KEY_COMMAND_ERRORS,
        'order_not_unknown',
        'order_not_expired',
        'order_lease_active',
        'workers_not_fenced',
        'venue_order_live',
        'filled_base_decrease',
        'venue_check_unavailable',
      ],
    },
    (env) =>
      bearerCommand(env, {
        prepare: (key, input) =>
          prepareResolvePerpOrder(
            env.deps,
            key,
            input.params.orderId as string,
          ),
        run: (tx, key, input) =>
          resolvePerpOrder(
            tx,
            env.deps,
            key,
            input.params.orderId as string,
            input.body,
          ),
      }),
  ),
]
