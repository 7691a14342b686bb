import { randomBytes } from 'node:crypto'
import { type BindingConfig, VenueUnavailableError } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LighterFake,
  startLighterFake,
} from '../../sim/lighterFake/startLighterFake.js'
import { createSimExchange } from '../../sim/simExchange.js'
import { createLighterAdapter } from '../adapter/createLighterAdapter.js'
import { LIGHTER_INTEGRATOR_INDEX } from '../binding/integratorConsentRequest.js'
import type { LighterVenue } from '../binding/lighterVenue.js'
import { changePubKeyL1Message } from '../signer/changePubKey.js'
import { lighterPublicKey } from '../signer/lighterKeys.js'
import { createLighterBinder } from './createLighterBinder.js'

const config: BindingConfig = {
  feeApproval: true,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

type Wallet = ReturnType<typeof privateKeyToAccount>

async function signAll(
  prepared: Awaited<
    ReturnType<ReturnType<typeof createLighterBinder>['prepare']>
  >,
  wallet: Wallet,
) {
  const signatures: Record<string, string> = {}
  for (const r of prepared.requests) {
    if (r.method !== 'personal_sign') throw new Error('Lighter signs messages')
    signatures[r.requestId] = await wallet.signMessage({
      message: r.payload.message,
    })
  }
  return signatures
}

for (const [venue, seed] of [
  ['lighter', 51],
  ['lighter-mainnet', 53],
] as const satisfies readonly (readonly [LighterVenue, number])[]) {
  describe(`createLighterBinder (${venue}) against the protocol fake`, () => {
    const exchange = createSimExchange({
      venue,
      seed,
      clock: { now: () => Date.now() },
    })
    let fake: LighterFake
    let binder: ReturnType<typeof createLighterBinder>
    beforeAll(async () => {
      fake = await startLighterFake({ exchange, venue, port: 0 })
      binder = createLighterBinder({ venue, baseUrl: fake.url })
    })
    afterAll(() => fake.close())

    test('default: preflight, prepare, wallet signs, complete, bound, trade', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      expect(await binder.findAccount(owner, { venue, accountIndex: 1 })).toBe(
        'missing',
      )
      const { accountIndex } = exchange.faucet(owner, 50_000)
      const target = { venue, accountIndex }
      expect(await binder.findAccount(owner, target)).toBe('found')
      const other = privateKeyToAccount(generatePrivateKey()).address
      const { accountIndex: othersIndex } = exchange.faucet(other, 10)
      expect(
        await binder.findAccount(owner, { venue, accountIndex: othersIndex }),
      ).toBe('not_owned')
      expect(
        await binder.findAccount(owner, { venue, accountIndex: 99_999 }),
      ).toBe('missing')

      const prepared = await binder.prepare(owner, target, config)
      expect(prepared.credentialRef).toBe(`${accountIndex}:5`)
      expect(prepared.requests.map((r) => r.requestId)).toEqual([
        `${venue}:changePubKey`,
        `${venue}:approveIntegrator`,
      ])
      const [registration, consent] = prepared.requests
      expect(registration?.payload).toEqual({
        message: changePubKeyL1Message({
          publicKey: lighterPublicKey(prepared.secret),
          nonce: 0,
          accountIndex,
          apiKeyIndex: 5,
        }),
      })
      expect(JSON.stringify(consent?.payload)).toContain(
        `integratorIndex=${LIGHTER_INTEGRATOR_INDEX[venue]}`,
      )
      const signatures = await signAll(prepared, wallet)
      for (const r of prepared.requests) {
        expect(
          await binder.verify(r, signatures[r.requestId] ?? '', owner),
        ).toBe(true)
      }
      const entry = { target, ...prepared, signatures }
      expect(await binder.complete(owner, entry)).toEqual({ outcome: 'bound' })
      expect(fake.state.keys.get(`${accountIndex}:5`)).toBe(
        lighterPublicKey(prepared.secret).slice(2),
      )
      expect([
        ...(fake.state.integrators.get(accountIndex)?.keys() ?? []),
      ]).toEqual([LIGHTER_INTEGRATOR_INDEX[venue]])
      // ChangePubKey and ApproveIntegrator each used a nonce
      expect(fake.state.nonces.get(`${accountIndex}:5`)).toBe(2)
      // completing again sends nothing and stays bound
      expect(await binder.complete(owner, entry)).toEqual({ outcome: 'bound' })
      expect(fake.state.nonces.get(`${accountIndex}:5`)).toBe(2)
      expect(await binder.isUsable(owner, prepared.credentialRef)).toBe(true)
      expect(await binder.isUsable(owner, `${accountIndex}:6`)).toBe(false)

      const adapter = createLighterAdapter({ venue, baseUrl: fake.url })
      const mark = Number((await adapter.quote('ETH')).mark)
      const placed = await adapter.place(
        {
          owner,
          venue,
          accountIndex: String(accountIndex),
          credentialRef: prepared.credentialRef,
          secret: prepared.secret,
        },
        {
          market: 'ETH',
          side: 'long',
          size: '0.01',
          price: (Math.ceil(mark * 101) / 100).toFixed(2),
          timeInForce: 'ioc',
          reduceOnly: false,
          clientOrderId: `0x${randomBytes(16).toString('hex')}`,
        },
      )
      expect(placed.state).toBe('filled')

      // the next binding of the account takes the next free slot
      const again = await binder.prepare(owner, target, {
        ...config,
        feeApproval: false,
      })
      expect(again.credentialRef).toBe(`${accountIndex}:6`)
      expect(again.requests).toHaveLength(1)
    })

    test('error: a registration signed by another wallet fails', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      const { accountIndex } = exchange.faucet(owner, 1_000)
      const target = { venue, accountIndex }
      const prepared = await binder.prepare(owner, target, config)
      const intruder = privateKeyToAccount(generatePrivateKey())
      const signatures = await signAll(prepared, intruder)
      expect(
        await binder.complete(owner, { target, ...prepared, signatures }),
      ).toMatchObject({ outcome: 'failed', code: 'invalid_signature' })
      expect(fake.state.keys.has(`${accountIndex}:5`)).toBe(false)
    })

    test('error: prepared for another signing chain fails invalid_signing_chain', async () => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      const { accountIndex } = exchange.faucet(owner, 1_000)
      const target = { venue, accountIndex }
      const prepared = await binder.prepare(owner, target, {
        ...config,
        lighterTestnet: true,
      })
      expect(prepared.context.signerChainId).toBe('300')
      const signatures = await signAll(prepared, wallet)
      expect(
        await binder.complete(owner, { target, ...prepared, signatures }),
      ).toMatchObject({
        outcome: 'failed',
        code: 'invalid_signing_chain',
        retryable: false,
      })
      expect(fake.state.keys.has(`${accountIndex}:5`)).toBe(false)
    })

    test('error: a deployment signing for another chain than the venue fails invalid_signing_chain at the venue', async () => {
      // server and worker both think testnet (300); the venue is production
      const testnet = createLighterBinder({
        venue,
        baseUrl: fake.url,
        testnet: true,
      })
      const wallet = privateKeyToAccount(generatePrivateKey())
      const owner = wallet.address.toLowerCase()
      const { accountIndex } = exchange.faucet(owner, 1_000)
      const target = { venue, accountIndex }
      const prepared = await testnet.prepare(owner, target, {
        ...config,
        lighterTestnet: true,
      })
      const signatures = await signAll(prepared, wallet)
      const result = await testnet.complete(owner, {
        target,
        ...prepared,
        signatures,
      })
      expect(result).toMatchObject({
        outcome: 'failed',
        code: 'invalid_signing_chain',
        retryable: false,
      })
      expect(fake.state.keys.has(`${accountIndex}:5`)).toBe(false)
    })

    test('error: a failed lookup is VenueUnavailableError, never missing', async () => {
      exchange.setFaults({ outage: true })
      try {
        await expect(
          binder.findAccount(`0x${'11'.repeat(20)}`, {
            venue,
            accountIndex: 1,
          }),
        ).rejects.toBeInstanceOf(VenueUnavailableError)
      } finally {
        exchange.setFaults({})
      }
    })
  })
}
