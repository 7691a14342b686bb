import { createDnClient } from '@dn/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type BindingBed, startBindingBed } from './support/bindingFixtures.js'
import { call } from './support/testService.js'
import { newWallet, signWalletMessage } from './support/wallet.js'

const PATH = '/v1/venue-accounts'

/** The `x-wallet-*` headers of a `list_venue_accounts` read. */
async function readHeaders(
  bed: BindingBed,
  wallet: ReturnType<typeof newWallet>,
  o: { expiresAt?: number; action?: string } = {},
): Promise<Record<string, string>> {
  const owner = wallet.address.toLowerCase()
  const expiresAt = o.expiresAt ?? bed.nowSec() + 120
  const signature = await signWalletMessage(
    wallet,
    o.action ?? 'list_venue_accounts',
    { owner, expiresAt },
  )
  return {
    'x-wallet-address': owner,
    'x-wallet-expires-at': String(expiresAt),
    'x-wallet-signature': signature,
  }
}

/**
 * The /bind page picks a Lighter account index from this look-up instead of
 * asking the person to know it.
 */
describe('GET /v1/venue-accounts: the Lighter accounts of a wallet', () => {
  let bed: BindingBed

  beforeAll(async () => {
    bed = await startBindingBed({ dialect: 'sqlite' })
  })
  afterAll(async () => {
    await bed?.close()
  })

  it('default: the faucet accounts on both Lighter venues, nothing else', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const lighter = bed.venues.faucet('lighter', owner).accountIndex
    const mainnet = bed.venues.faucet('lighter-mainnet', owner).accountIndex
    const res = await call(bed.svc, 'GET', PATH, {
      headers: await readHeaders(bed, wallet),
    })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      venues: [
        { venue: 'lighter', status: 'found', accountIndexes: [lighter] },
        {
          venue: 'lighter-mainnet',
          status: 'found',
          accountIndexes: [mainnet],
        },
      ],
    })
  })

  it('default: the client signs the read and answers the venues', async () => {
    const wallet = newWallet()
    const lighter = bed.venues.faucet(
      'lighter',
      wallet.address.toLowerCase(),
    ).accountIndex
    const client = createDnClient({ baseUrl: bed.svc.url, retryCount: 0 })
    expect(await client.listVenueAccounts(wallet)).toEqual([
      { venue: 'lighter', status: 'found', accountIndexes: [lighter] },
      { venue: 'lighter-mainnet', status: 'missing', accountIndexes: [] },
    ])
  })

  it('behavior: missing without an account; unavailable when the venue is down', async () => {
    const wallet = newWallet()
    bed.venues.exchanges['lighter-mainnet'].setFaults({ outage: true })
    try {
      const res = await call(bed.svc, 'GET', PATH, {
        headers: await readHeaders(bed, wallet),
      })
      expect(res.status).toBe(200)
      expect(res.body.venues).toEqual([
        { venue: 'lighter', status: 'missing', accountIndexes: [] },
        { venue: 'lighter-mainnet', status: 'unavailable', accountIndexes: [] },
      ])
    } finally {
      bed.venues.exchanges['lighter-mainnet'].setFaults({})
    }
  })

  it('error: 400 without wallet headers, 401 for another action or an expired read', async () => {
    const wallet = newWallet()
    const none = await call(bed.svc, 'GET', PATH)
    expect(none.status).toBe(400)
    expect(none.body.code).toBe('invalid_wallet_headers')
    const other = await call(bed.svc, 'GET', PATH, {
      headers: await readHeaders(bed, wallet, {
        action: 'list_venue_bindings',
      }),
    })
    expect(other.status).toBe(401)
    expect(other.body.code).toBe('invalid_signature')
    const expired = await call(bed.svc, 'GET', PATH, {
      headers: await readHeaders(bed, wallet, { expiresAt: bed.nowSec() - 1 }),
    })
    expect(expired.status).toBe(401)
    expect(expired.body.code).toBe('authorization_expired')
  })
})
