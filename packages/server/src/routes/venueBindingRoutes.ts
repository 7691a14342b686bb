import {
  BindingRouteError,
  bindingBatchView,
  ConflictError,
  checkSignatures,
  EmptyQuery,
  isAppError,
  listVenueAccounts,
  listVenueBindings,
  loadBatch,
  msToIso,
  normalizeIdempotencyKey,
  PrepareVenueBindingsBody,
  prepareVenueBindings,
  readVenueBindings,
  requestFingerprint,
  SubmitVenueBindingsBody,
  submitVenueBindings,
  UnavailableError,
  VenueAccountList,
  VenueBindingBatch,
  VenueBindingList,
  type VenueTarget,
  WalletHeaders,
  WORK_CHANNEL,
  walletReadOf,
} from '@dn/core'
import { errorResponse } from '../http/errorResponse.js'
import type { HttpResponse } from '../http/httpResponse.js'
import { json } from '../http/httpResponse.js'
import type { Handler, RequestContext } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'
import { BINDING_ERRORS, WALLET_ERRORS } from './errorCodeSets.js'
import { publicHandler } from './publicHandler.js'
import { routeInput } from './routeInput.js'
import { defineRoute } from './routeSpec.js'

/**
 * Binding routes answer errors as exactly `{code, error}` (the contract's
 * BindingError), whatever raised them.
 */
function bindingRoute(
  deps: ServerDeps,
  handler: (ctx: RequestContext) => Promise<HttpResponse>,
): Handler {
  return async (ctx) => {
    try {
      return await handler(ctx)
    } catch (err) {
      const res = errorResponse(err, ctx.requestId, deps.logger)
      const message = isAppError(err)
        ? err.message
        : (res.body as { error: string }).error
      return { ...res, body: { code: res.code, error: message } }
    }
  }
}

function bindingDeps(deps: ServerDeps) {
  if (!deps.binding) {
    throw new UnavailableError(
      'binding_unavailable',
      'venue binding is not configured on this deployment',
    )
  }
  return { ...deps, ...deps.binding }
}

const binding = {
  tag: 'Venue bindings',
  invalidBodyCode: 'invalid_request',
  errors: BINDING_ERRORS,
} as const

/** Wallet-signed venue binding: prepare, submit signatures, read. */
export const VENUE_BINDING_ROUTES = [
  defineRoute(
    {
      ...binding,
      method: 'POST',
      path: '/v1/venue-bindings/prepare',
      operationId: 'prepareVenueBindings',
      summary: 'Prepare venue bindings and the payloads the wallet must sign',
      auth: 'wallet',
      request: { body: PrepareVenueBindingsBody, query: EmptyQuery },
      idempotent: false,
      success: {
        status: 200,
        schema: VenueBindingBatch,
        description: 'Batch with immutable sign requests',
      },
      errors: [...BINDING_ERRORS, 'venue_account_not_found'],
    },
    ({ deps, route }) =>
      bindingRoute(deps, async (ctx) => {
        const { body } = await routeInput(ctx, route)
        const view = await prepareVenueBindings(bindingDeps(deps), {
          owner: body.owner,
          venues: body.venues as readonly VenueTarget[],
          authorization: body.authorization,
        })
        return json(route.success.status, view)
      }),
  ),
  defineRoute(
    {
      ...binding,
      method: 'POST',
      path: '/v1/venue-bindings/{bindingId}/submit',
      operationId: 'submitVenueBindings',
      summary: 'Submit venue signatures for a binding batch',
      auth: 'none',
      request: { body: SubmitVenueBindingsBody, query: EmptyQuery },
      idempotent: true,
      success: {
        status: 202,
        schema: VenueBindingBatch,
        description: 'Signatures durably accepted',
      },
    },
    ({ deps, route }) =>
      bindingRoute(deps, async (ctx) => {
        const { params, body, raw } = await routeInput(ctx, route)
        const bindingId = params.bindingId as string
        const key = normalizeIdempotencyKey(ctx.req.headers['idempotency-key'])
        const bd = bindingDeps(deps)
        const scope = `binding:${bindingId}`
        const fingerprint = requestFingerprint(ctx.method, ctx.path, raw)
        const replay = async (fp: string): Promise<HttpResponse> => {
          if (fp !== fingerprint) {
            throw new ConflictError(
              'idempotency_key_reused',
              'this Idempotency-Key was used for different signatures; reuse the original body',
            )
          }
          // a replay answers the current state, and still checks signatures
          const batch = await loadBatch(bd, bindingId)
          await checkSignatures(bd, batch, body.signatures, 'replay')
          return {
            ...json(
              route.success.status,
              bindingBatchView(batch, deps.clock.now()),
            ),
            headers: { 'idempotent-replayed': 'true' },
          }
        }
        const stored = await deps.store.idempotency.get(scope, key)
        if (stored) return replay(stored.fingerprint)
        // the signatures and the key commit together: two requests with one
        // key cannot both be taken as first
        let view: Awaited<ReturnType<typeof submitVenueBindings>>
        let text = ''
        let earlier: string | undefined
        try {
          view = await deps.store.transaction(async (tx) => {
            const v = await submitVenueBindings(bd, bindingId, body.signatures)
            text = JSON.stringify(v)
            const claim = await tx.idempotency.claim({
              scope,
              key,
              method: ctx.method,
              path: ctx.path,
              fingerprint,
              status: route.success.status,
              body: text,
              createdAt: msToIso(deps.clock.now()),
            })
            if (!claim.inserted) {
              earlier = claim.existing.fingerprint
              throw new ConflictError('idempotency_key_in_use', 'superseded')
            }
            return v
          })
        } catch (err) {
          if (earlier !== undefined) return replay(earlier)
          // the same request, racing its own first copy that got in first:
          // once that copy has committed its key, this one is its replay
          if (isAlreadyAccepted(err)) {
            const first = await deps.store.idempotency.get(scope, key)
            if (first) return replay(first.fingerprint)
          }
          throw err
        }
        if (view.status === 'processing') {
          deps.store.notify(WORK_CHANNEL).catch(() => undefined)
        }
        return { status: route.success.status, body: view, text }
      }),
  ),
  defineRoute(
    {
      tag: 'Venue bindings',
      auth: 'wallet',
      idempotent: false,
      method: 'GET',
      path: '/v1/venue-bindings',
      operationId: 'listVenueBindings',
      summary:
        "List the wallet's bound venue accounts (wallet-signed headers, action list_venue_bindings)",
      request: { query: EmptyQuery, headers: WalletHeaders },
      success: {
        status: 200,
        schema: VenueBindingList,
        description: 'Every venue the wallet bound, with its state',
      },
      errors: [...WALLET_ERRORS, 'invalid_wallet_headers'],
    },
    (env) =>
      publicHandler(env, ({ headers: h }) =>
        listVenueBindings(env.deps, walletReadOf(h)),
      ),
  ),
  defineRoute(
    {
      tag: 'Venue bindings',
      auth: 'wallet',
      idempotent: false,
      method: 'GET',
      path: '/v1/venue-accounts',
      operationId: 'listVenueAccounts',
      summary:
        "Look up the wallet's Lighter account indexes at the venues (wallet-signed headers, action list_venue_accounts)",
      request: { query: EmptyQuery, headers: WalletHeaders },
      success: {
        status: 200,
        schema: VenueAccountList,
        description:
          'Per venue that names accounts by index: the indexes it lists for the wallet',
      },
      errors: [
        ...WALLET_ERRORS,
        'invalid_wallet_headers',
        'binding_unavailable',
      ],
      components: { VenueAccountList },
    },
    (env) =>
      publicHandler(env, ({ headers: h }) =>
        listVenueAccounts(bindingDeps(env.deps), walletReadOf(h)),
      ),
  ),
  defineRoute(
    {
      ...binding,
      method: 'GET',
      path: '/v1/venue-bindings/{bindingId}',
      operationId: 'getVenueBindingBatch',
      summary: 'Read a binding batch (persisted state only)',
      auth: 'wallet',
      request: { query: EmptyQuery, headers: WalletHeaders },
      idempotent: false,
      success: {
        status: 200,
        schema: VenueBindingBatch,
        description: 'The batch',
      },
    },
    ({ deps, route }) =>
      bindingRoute(deps, async (ctx) => {
        const { params, headers: h } = await routeInput(ctx, route)
        return json(
          route.success.status,
          await readVenueBindings(
            bindingDeps(deps),
            params.bindingId as string,
            walletReadOf(h),
          ),
        )
      }),
  ),
]

function isAlreadyAccepted(err: unknown): boolean {
  return (
    err instanceof BindingRouteError &&
    err.code === 'signature_already_accepted'
  )
}
