import { composeVenues, composeWorkerDeps, deriveKey } from '@dn/cli'
import { createDnClient, type DnClient } from '@dn/client'
import {
  type BindingConfig,
  createAesGcmSecrets,
  type RunningWorker,
  resolveCredential,
  startWorker,
} from '@dn/core'
import {
  createHyperliquidAdapter,
  createSimVenues,
  type SimVenues,
  signL1Action,
} from '@dn/venues'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'

const MASTER = Buffer.alloc(32, 9)
const config: BindingConfig = {
  feeApproval: false,
  builderAddress: `0x${'0b'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

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
    let sim: SimVenues
    let venues: Awaited<ReturnType<typeof composeVenues>>
    let svc: TestService
    let worker: RunningWorker
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
      sim = createSimVenues({ seed: 41 })
      venues = await composeVenues(
        sim,
        {},
        { hlMainnet: true, asterTestnet: false, config },
      )
      const secrets = createAesGcmSecrets(
        deriveKey(MASTER, 'venue-credentials'),
      )
      svc = await startTestService({
        dialect,
        markets: venues.marketData,
        binding: { binders: venues.binders, secrets, config },
      })
      const hl = createHyperliquidAdapter({
        baseUrl: venues.protocolUrls.hl as string,
        isMainnet: true,
        fetchFn: wire,
        nonceSource: async (_signer, now) => {
          // a reused nonce: one the venue already took
          if (tamper === 'nonce') return acceptedNonce
          lastNonce = Math.max(lastNonce + 1, now)
          return lastNonce
        },
      })
      worker = startWorker(
        composeWorkerDeps({
          store: svc.store,
          adapters: { ...venues.adapters, hl },
          binders: venues.binders,
          masterKey: MASTER,
          workerId: `hl-refusals-${dialect}`,
          logger: { info: () => {}, error: () => {} },
        }),
        { idleMs: 25 },
      )
      const owner = wallet.address.toLowerCase()
      sim.faucet('hl', owner)
      sim.faucet('aster', owner)
      const anon = createDnClient({ baseUrl: svc.url })
      const batch = await anon.bindVenues(
        wallet,
        [{ venue: 'hl' }, { venue: 'aster' }],
        { intervalMs: 25, timeoutMs: 20_000 },
      )
      expect(batch.results.map((r) => r.status)).toEqual(['bound', 'bound'])
      const cred = await resolveCredential(svc.store, secrets, owner, 'hl')
      agentKey = cred.secret as Hex
      const key = await anon.createApiKey(wallet, {
        venues: ['hl', 'aster'],
        maxSizeUsd: 20_000,
      })
      dn = createDnClient({ baseUrl: svc.url, apiKey: key.apiKey })
    }, 60_000)

    afterAll(async () => {
      await worker?.stop()
      await svc?.close()
      await venues?.close()
    })

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
