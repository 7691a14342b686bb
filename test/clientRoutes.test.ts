import { createDnClient, type DnClient } from '@dn/client'
import type { DeclaredRouteSpec } from '@dn/server'
import { ROUTE_SPECS } from '@dn/server'
import { describe, expect, expectTypeOf, test } from 'vitest'

// The client may not import the server or core (dependency-cruiser:
// client-stands-alone), so its types are written by hand. This test holds
// them to the route declarations: every declared route has a client method,
// and what each route's schemas produce fits the client's types.

// valibot's own inference, read from its `~types` (valibot is core's
// dependency, not the workspace root's)
type Output<S> = S extends { '~types'?: { output: infer O } } ? O : never
type Input<S> = S extends { '~types'?: { input: infer I } } ? I : never

type OperationId = DeclaredRouteSpec['operationId']
type Spec<Id extends OperationId> = Extract<
  DeclaredRouteSpec,
  { operationId: Id }
>
/** What the server answers on success (the schema's output). */
type Out<Id extends OperationId> = Output<Spec<Id>['success']['schema']>
/** What the server accepts as body (the schema's input). */
type In<Id extends OperationId> =
  Spec<Id> extends {
    readonly request: { readonly body: infer B }
  }
    ? Input<B>
    : never
/** The client's flat methods (its namespaces, `tasks` etc., are objects). */
type Method = {
  [K in keyof DnClient]: DnClient[K] extends (...args: never[]) => unknown
    ? K
    : never
}[keyof DnClient]
type Returns<M extends Method> = Awaited<ReturnType<DnClient[M]>>
type Arg<M extends Method, I extends number> = Parameters<DnClient[M]>[I]

/** The client method that calls each declared route. */
const CLIENT_METHOD: Record<OperationId, Method> = {
  getHealth: 'health',
  listVenueBindings: 'listBindings',
  listVenueAccounts: 'listVenueAccounts',
  getOpenApiDocument: 'openApiDocument',
  listTasks: 'listTasks',
  createTask: 'createTask',
  getTask: 'getTask',
  getTaskHistory: 'taskHistory',
  cancelTask: 'cancelTask',
  closeTask: 'closeTask',
  resizeTask: 'resizeTask',
  listStrategyRequests: 'strategyRequests',
  listPerpRequests: 'perpRequests',
  listPerpOrders: 'listOrders',
  createPerpOrder: 'createOrder',
  getPerpOrder: 'getOrder',
  cancelPerpOrder: 'cancelOrder',
  resolvePerpOrder: 'resolveOrder',
  listMarkets: 'markets',
  listPositions: 'positions',
  listBalances: 'balances',
  prepareVenueBindings: 'bindVenues',
  submitVenueBindings: 'bindVenues',
  getVenueBindingBatch: 'readBinding',
  createApiKey: 'createApiKey',
  listApiKeys: 'listApiKeys',
  revokeApiKey: 'revokeApiKey',
}

describe('client and route declarations', () => {
  test('default: every declared route has a client method', () => {
    const client = createDnClient({ baseUrl: 'http://127.0.0.1:1' })
    expect(Object.keys(CLIENT_METHOD).sort()).toEqual(
      ROUTE_SPECS.map((r) => r.operationId).sort(),
    )
    for (const method of Object.values(CLIENT_METHOD)) {
      expect(typeof client[method], method).toBe('function')
    }
  })

  test('types: each success body fits the client type', () => {
    // the inference is real (a `never` would make every check below pass)
    expectTypeOf<Out<'getTask'>>().not.toBeNever()
    expectTypeOf<In<'createTask'>>().not.toBeNever()
    expectTypeOf<Out<'getTask'>>().not.toBeAny()
    expectTypeOf<Out<'getHealth'>>().toExtend<Returns<'health'>>()
    expectTypeOf<Out<'listTasks'>>().toExtend<Returns<'listTasks'>>()
    expectTypeOf<Out<'getTask'>>().toExtend<{ task: Returns<'getTask'> }>()
    expectTypeOf<Out<'getTaskHistory'>>().toExtend<Returns<'taskHistory'>>()
    expectTypeOf<Out<'listStrategyRequests'>>().toExtend<{
      requests: Returns<'strategyRequests'>
    }>()
    expectTypeOf<Out<'listPerpRequests'>>().toExtend<{
      requests: Returns<'perpRequests'>
    }>()
    expectTypeOf<Out<'listPerpOrders'>>().toExtend<Returns<'listOrders'>>()
    expectTypeOf<Out<'getPerpOrder'>>().toExtend<{
      order: Returns<'getOrder'>
    }>()
    expectTypeOf<Out<'resolvePerpOrder'>>().toExtend<Returns<'resolveOrder'>>()
    expectTypeOf<Out<'listMarkets'>>().toExtend<Returns<'markets'>>()
    expectTypeOf<Out<'listPositions'>>().toExtend<Returns<'positions'>>()
    expectTypeOf<Out<'listBalances'>>().toExtend<Returns<'balances'>>()
    expectTypeOf<Out<'getVenueBindingBatch'>>().toExtend<
      Returns<'readBinding'>
    >()
    expectTypeOf<Out<'createApiKey'>>().toExtend<Returns<'createApiKey'>>()
    expectTypeOf<Out<'listApiKeys'>>().toExtend<{
      keys: Returns<'listApiKeys'>
    }>()
    expectTypeOf<Out<'revokeApiKey'>>().toExtend<Returns<'revokeApiKey'>>()
  })

  test('types: acknowledgements the client narrows fit the shared ack schema', () => {
    // TaskAck/OrderAck list every status any command may acknowledge; the
    // client narrows each method to its own, which the schema must allow
    expectTypeOf<Returns<'createTask'>>().toExtend<Out<'createTask'>>()
    expectTypeOf<Returns<'cancelTask'>>().toExtend<Out<'cancelTask'>>()
    expectTypeOf<Returns<'closeTask'>>().toExtend<Out<'closeTask'>>()
    expectTypeOf<Returns<'resizeTask'>>().toExtend<Out<'resizeTask'>>()
    expectTypeOf<Returns<'createOrder'>>().toExtend<Out<'createPerpOrder'>>()
    expectTypeOf<Returns<'cancelOrder'>>().toExtend<Out<'cancelPerpOrder'>>()
  })

  test('types: each body the client sends is one the route accepts', () => {
    expectTypeOf<Arg<'createTask', 0>>().toExtend<In<'createTask'>>()
    expectTypeOf<Arg<'resizeTask', 1>>().toExtend<In<'resizeTask'>>()
    expectTypeOf<Arg<'createOrder', 0>>().toExtend<In<'createPerpOrder'>>()
    expectTypeOf<Arg<'resolveOrder', 1>>().toExtend<In<'resolvePerpOrder'>>()
  })
})
