import { deriveKey } from '@dn/cli'
import {
  type BindingConfig,
  createAesGcmSecrets,
  credentialAad,
  type Store,
  type VenueBinder,
  type VenueTarget,
} from '@dn/core'
import type { PrivateKeyAccount } from 'viem/accounts'
import { signRequest } from './bindingFixtures.js'

/**
 * Binds `target` for `wallet` through the venue's own binder (the wallet
 * signs every request, the binder authorizes at the venue), then stores the
 * credential encrypted as the worker would. For tests that need a bound
 * protocol venue without going through the binding routes.
 */
export async function bindAtVenue(o: {
  readonly store: Store
  readonly masterKey: Buffer
  readonly binder: VenueBinder
  readonly wallet: PrivateKeyAccount
  readonly target: VenueTarget
  readonly config: BindingConfig
}): Promise<void> {
  const owner = o.wallet.address.toLowerCase()
  const prepared = await o.binder.prepare(owner, o.target, o.config)
  const signatures: Record<string, string> = {}
  for (const r of prepared.requests) {
    signatures[r.requestId] = await signRequest(o.wallet, r)
  }
  const result = await o.binder.complete(owner, {
    target: o.target,
    ...prepared,
    signatures,
  })
  if (result.outcome !== 'bound') {
    throw new Error(`${o.target.venue} did not bind: ${JSON.stringify(result)}`)
  }
  const secrets = createAesGcmSecrets(
    deriveKey(o.masterKey, 'venue-credentials'),
  )
  const now = new Date().toISOString()
  await o.store.bindings.upsert({
    id: crypto.randomUUID(),
    owner,
    venue: o.target.venue,
    status: 'bound',
    accountIndex:
      o.target.accountIndex === undefined
        ? null
        : String(o.target.accountIndex),
    credentialRef: prepared.credentialRef,
    credentialCiphertext: secrets.encrypt(
      prepared.secret,
      credentialAad(owner, o.target.venue),
    ),
    unusableCode: null,
    createdAt: now,
    updatedAt: now,
  })
}
