import {
  verifyWalletRead,
  type WalletRead,
} from '../auth/verifyWalletSignature.js'
import { AppError } from '../errors/appError.js'
import {
  bindingBatchView,
  type VenueBindingBatchView,
} from './bindingBatchView.js'
import { BindingRouteError } from './bindingRouteError.js'
import type { BindingDeps } from './prepareVenueBindings.js'
import { loadBatch } from './submitVenueBindings.js'

/**
 * Reads a batch for the wallet that signed `read` over {owner, bindingId,
 * expiresAt}; the signature may be reused for this binding until it
 * expires. Another wallet's batch is a 404, as if it did not exist.
 */
export async function readVenueBindings(
  deps: Pick<BindingDeps, 'store' | 'clock' | 'authDomain'>,
  bindingId: string,
  auth: WalletRead,
): Promise<VenueBindingBatchView> {
  const owner = await verifyWalletRead({
    ...auth,
    domain: deps.authDomain,
    action: 'read',
    names: { bindingId },
    nowMs: deps.clock.now(),
  }).catch((err: unknown) => {
    throw err instanceof AppError
      ? new BindingRouteError(err.code, err.message)
      : err
  })
  const batch = await loadBatch(deps, bindingId)
  if (batch.owner !== owner) {
    throw new BindingRouteError(
      'binding_not_found',
      `binding ${bindingId} not found`,
    )
  }
  return bindingBatchView(batch, deps.clock.now())
}
