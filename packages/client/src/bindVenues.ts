import { randomUUID } from 'node:crypto'
import type { Transport } from './transport.js'
import type { BindingTarget, SignRequest, VenueBindingBatch } from './types.js'
import {
  newNonce,
  signWalletAction,
  type WalletSigner,
  walletReadHeaders,
} from './walletAuth.js'

const SETTLED = ['bound', 'partial_success', 'failed']

/** Signs one venue sign request exactly as returned by the service. */
async function signRequest(
  signer: WalletSigner,
  r: SignRequest,
): Promise<string> {
  if (r.method === 'personal_sign')
    return signer.signMessage({ message: r.payload.message })
  return signer.signTypedData(r.payload)
}

/**
 * The binding flow of the contract for one wallet: prepare (wallet-signed),
 * sign every returned request, submit with an Idempotency-Key, then poll
 * until every venue settles. `onProgress` sees each polled batch.
 */
export async function bindVenues(
  request: Transport,
  domain: string,
  signer: WalletSigner,
  targets: readonly BindingTarget[],
  o: {
    onProgress?: (b: VenueBindingBatch) => void
    intervalMs?: number
    timeoutMs?: number
  } = {},
): Promise<VenueBindingBatch> {
  const owner = signer.address.toLowerCase()
  const nonce = newNonce()
  const expiresAt = Math.floor(Date.now() / 1000) + 120
  const signature = await signWalletAction(signer, domain, 'prepare', {
    owner,
    venues: targets,
    nonce,
    expiresAt,
  })
  let batch = await request<VenueBindingBatch>(
    'POST',
    '/v1/venue-bindings/prepare',
    {
      body: {
        owner,
        venues: targets,
        authorization: { nonce, expiresAt, signature },
      },
      headers: { 'idempotency-key': nonce },
    },
  )
  o.onProgress?.(batch)
  if (batch.signRequests.length > 0) {
    const signatures = []
    for (const r of batch.signRequests) {
      signatures.push({
        requestId: r.requestId,
        signature: await signRequest(signer, r),
      })
    }
    batch = await request<VenueBindingBatch>(
      'POST',
      `/v1/venue-bindings/${batch.bindingId}/submit`,
      {
        body: { signatures },
        idempotencyKey: randomUUID(),
      },
    )
    o.onProgress?.(batch)
  }
  const deadline = Date.now() + (o.timeoutMs ?? 120_000)
  while (!SETTLED.includes(batch.status) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, o.intervalMs ?? 500))
    batch = await readBinding(request, domain, signer, batch.bindingId)
    o.onProgress?.(batch)
  }
  return batch
}

/** Reads a batch with the three wallet headers. */
export async function readBinding(
  request: Transport,
  domain: string,
  signer: WalletSigner,
  bindingId: string,
): Promise<VenueBindingBatch> {
  return request<VenueBindingBatch>('GET', `/v1/venue-bindings/${bindingId}`, {
    headers: await walletReadHeaders(signer, domain, 'read', { bindingId }),
  })
}
