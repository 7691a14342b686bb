// A bench owner: venues bound in the store directly (no venue round trip)
// and an API key created through the signed route, as a user would.
import { randomBytes, randomUUID } from 'node:crypto'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  DEFAULT_BINDING_AUTH_DOMAIN,
  walletMessage,
} from '../packages/core/dist/index.js'

/**
 * @param o.url the service's base URL
 * @param o.store its store
 * @param o.venueIds the venues bound and granted to the key
 * @param o.maxSizeUsd the key's size cap
 * @param o.faucet funds an account at the simulated venue and names its
 *   index (omitted: bindings without an account index)
 */
export async function createBenchOwner({
  url,
  store,
  venueIds,
  maxSizeUsd,
  faucet,
}) {
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const now = new Date().toISOString()
  for (const venue of venueIds) {
    await store.bindings.upsert({
      id: randomUUID(),
      owner,
      venue,
      status: 'bound',
      accountIndex: faucet ? String(faucet(venue, owner).accountIndex) : null,
      credentialRef: null,
      credentialCiphertext: null,
      createdAt: now,
      updatedAt: now,
    })
  }
  const expiresAt = Math.floor(Date.now() / 1000) + 120
  const nonce = randomBytes(16).toString('base64url')
  const payload = {
    owner,
    venues: venueIds,
    maxSizeUsd,
    label: null,
    nonce,
    expiresAt,
  }
  const signature = await wallet.signMessage({
    message: walletMessage(
      DEFAULT_BINDING_AUTH_DOMAIN,
      'create_api_key',
      payload,
    ),
  })
  const res = await fetch(`${url}/v1/api-keys`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      owner,
      venues: venueIds,
      maxSizeUsd,
      authorization: { nonce, expiresAt, signature },
    }),
  })
  const body = await res.json()
  if (res.status !== 201) throw new Error(`api key: ${JSON.stringify(body)}`)
  return { owner, apiKey: body.apiKey }
}
