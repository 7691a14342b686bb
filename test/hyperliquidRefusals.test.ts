import { type ComposedVenues, deriveKey } from '@dn/cli'
import type { DnClient } from '@dn/client'
import { createAesGcmSecrets, resolveCredential } from '@dn/core'
import { createHyperliquidAdapter, signL1Action } from '@dn/venues'
import type { SimVenues } from '@dn/venues/sim'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'
import {
  type ProtocolService,
  startProtocolService,
} from './support/protocolService.js'
import { dialects } from './support/testService.js'

const MASTER = Buffer.alloc(32, 9)
const config = { ...FEE_CONFIG, feeApproval: false }

type Tamper = 'none' | 'signature' | 'nonce' | 'price'

/**
 * What the Hyperliquid fake refuses reaches the user as the contract's
 * order status: a tampered signature, a reused nonce and an off-tick price
 * each end `rejected`, with the venue's own words, and nothing is placed.
 * The tampering happens on the wire, between our adapter and the fake.
 */
describe.each(dialects())(
  'Hyperliquid refusals through the service (%s)',
  (dialect) => {
    let bed: ProtocolService
    let sim: SimVenues
    let venues: ComposedVenues
    let dn: DnClient
    const wallet = privateKeyToAccount(generatePrivateKey())
    let tamper: Tamper = 'none'
    let lastNonce = 0
    /** the nonce of the last request sent untouched (the venue took it) */
    let acceptedNonce = 0
    let agentKey: Hex | undefined

    /** the wire: alters signed `/exchange` order requests as told */
    const wire: typeof fetch = async (input, init) => {
      const url = String(input instanceof Request ? input.url : input)
      if (!url.endsWith('/exchange') || typeof init?.body !== 'string')
        return fetch(input, init)
      const body = JSON.parse(init.body)
      if (tamper === 'none') acceptedNonce = body.nonce
      if (body.action?.type === 'order' && tamper === 'signature') {
        const s: string = body.signature.s
        body.signature.s = `${s.slice(0, -1)}${s.endsWith('0') ? '1' : '0'}`
      }
      if (body.action?.type === 'order' && tamper === 'price' && agentKey) {
        // one significant figure too many, then signed again by the agent:
        // exactly what a precision bug of ours would send
        const p: string = body.action.orders[0].p
        body.action.orders[0].p = p.includes('.') ? `${p}001` : `${p}.001`
        body.signature = await signL1Action({
          privateKey: agentKey,
          action: body.action,
          vaultAddress: null,
          nonce: body.nonce,
          expiresAfter: body.expiresAfter,
          isMainnet: true,
        })
      }
      return fetch(input, { ...init, body: JSON.stringify(body) })
    }

    beforeAll(async () => {
      bed = await startProtocolService({
        dialect,
        seed: 41,
        masterKey: MASTER,
        config,
        workerId: `hl-refusals-${dialect}`,
        // the worker trades hl through an adapter on the tampering wire
        workerAdapters: (v) => ({
          hl: createHyperliquidAdapter({
            baseUrl: v.protocolUrls.hl as string,
            isMainnet: true,
            fetchFn: wire,
            nonceSource: async (_signer, now) => {
              // a reused nonce: one the venue already took
              if (tamper === 'nonce') return acceptedNonce
              lastNonce = Math.max(lastNonce + 1, now)
              return lastNonce
            },
          }),
        }),
      })
      ;({ sim, venues } = bed)
      dn = await bed.bindAndKey(wallet, [{ venue: 'hl' }, { venue: 'aster' }])
      const cred = await resolveCredential(
        bed.svc.store,
        createAesGcmSecrets(deriveKey(MASTER, 'venue-credentials')),
        wallet.address.toLowerCase(),
        'hl',
      )
      agentKey = cred.secret as Hex
    }, 60_000)

    afterAll(() => bed?.close())

    async function orderWith(t: Tamper) {
      tamper = t
      try {
        const mark = Number((await venues.marketData.quote('hl', 'ETH')).mark)
        const { orderId } = await dn.createOrder({
          venue: 'hl',
          market: 'ETH',
          side: 'long',
          orderType: 'limit',
          sizeBase: 0.01,
          limitPrice: Math.floor(mark * 0.95),
        })
        return await dn.waitForOrder(orderId, {
          intervalMs: 25,
          timeoutMs: 15_000,
          until: ['open', 'rejected', 'unknown'],
        })
      } finally {
        tamper = 'none'
      }
    }

    test('the untouched wire places the order (the baseline)', async () => {
      const order = await orderWith('none')
      expect(order.status).toBe('open')
      expect(
        sim.exchanges.hl.stats().byClientOrderId.get(order.clientOrderId),
      ).toBe(1)
    })

    test.each([
      ['signature', /User or API Wallet 0x[0-9a-f]{40} does not exist/],
      ['nonce', /Invalid nonce: duplicate nonce/],
      ['price', /Order has invalid price/],
    ] as const)(
      'a tampered %s is refused by the venue: rejected, nothing placed',
      async (t, reason) => {
        const order = await orderWith(t)
        expect(order.status).toBe('rejected')
        expect(order.error).toMatch(reason)
        expect(
          sim.exchanges.hl.stats().byClientOrderId.get(order.clientOrderId),
        ).toBeUndefined()
      },
    )
  },
)
