import {
  BindingRouteError,
  bindingBatchView,
  ConflictError,
  checkSignatures,
  isAppError,
  loadBatch,
  msToIso,
  normalizeIdempotencyKey,
  PrepareVenueBindingsBody,
  parseInput,
  prepareVenueBindings,
  readVenueBindings,
  requestFingerprint,
  SubmitVenueBindingsBody,
  submitVenueBindings,
  UnavailableError,
  type VenueTarget,
  WalletHeaders,
  WORK_CHANNEL,
} from '@dn/core'
import { errorResponse } from '../http/errorResponse.js'
import type { HttpResponse } from '../http/httpResponse.js'
import { json } from '../http/httpResponse.js'
import { readJsonBody } from '../http/readJsonBody.js'
import { pathId, requireNoQuery } from '../http/requestInput.js'
import type { Handler, RequestContext, Route } from '../router.js'
import type { ServerDeps } from '../serverDeps.js'

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
        : (JSON.parse(res.body) as { error: string }).error
      return {
        ...res,
        body: JSON.stringify({ code: res.code, error: message }),
      }
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

export function venueBindingRoutes(deps: ServerDeps): Route[] {
  return [
    {
      method: 'POST',
      pattern: '/v1/venue-bindings/prepare',
      handler: bindingRoute(deps, async (ctx) => {
        requireNoQuery(ctx)
        const body = parseInput(
          PrepareVenueBindingsBody,
          await readJsonBody(ctx.req),
          'invalid_request',
        )
        const view = await prepareVenueBindings(bindingDeps(deps), {
          owner: body.owner,
          venues: body.venues as readonly VenueTarget[],
          authorization: body.authorization,
        })
        return json(200, view)
      }),
    },
    {
      method: 'POST',
      pattern: '/v1/venue-bindings/{bindingId}/submit',
      handler: bindingRoute(deps, async (ctx) => {
        const bindingId = pathId(ctx, 'bindingId')
        requireNoQuery(ctx)
        const raw = await readJsonBody(ctx.req)
        const body = parseInput(SubmitVenueBindingsBody, raw, 'invalid_request')
        const key = normalizeIdempotencyKey(ctx.req.headers['idempotency-key'])
        const bd = bindingDeps(deps)
        const scope = `binding:${bindingId}`
        const fingerprint = requestFingerprint(ctx.method, ctx.path, raw)
        const replay = async (fp: string) => {
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
            ...json(202, bindingBatchView(batch, deps.clock.now())),
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
              status: 202,
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
        return { status: 202, body: text }
      }),
    },
    {
      method: 'GET',
      pattern: '/v1/venue-bindings/{bindingId}',
      handler: bindingRoute(deps, async (ctx) => {
        const bindingId = pathId(ctx, 'bindingId')
        requireNoQuery(ctx)
        const h = parseInput(
          WalletHeaders,
          ctx.req.headers,
          'invalid_wallet_headers',
        )
        return json(
          200,
          await readVenueBindings(bindingDeps(deps), bindingId, {
            owner: h['x-wallet-address'],
            expiresAt: Number(h['x-wallet-expires-at']),
            signature: h['x-wallet-signature'],
          }),
        )
      }),
    },
  ]
}

function isAlreadyAccepted(err: unknown): boolean {
  return (
    err instanceof BindingRouteError &&
    err.code === 'signature_already_accepted'
  )
}
