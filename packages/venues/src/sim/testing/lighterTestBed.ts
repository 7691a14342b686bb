import type { BindingConfig, Clock, VenueCredential } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createLighterBinder } from '../../lighter/binder/createLighterBinder.js'
import type { LighterVenue } from '../../lighter/binding/lighterVenue.js'
import {
  type LighterFake,
  type LighterFakeOptions,
  startLighterFake,
} from '../lighterFake/startLighterFake.js'
import { createSimExchange, type SimExchange } from '../simExchange.js'

/** A funded wallet bound to a Lighter fake, ready to trade. */
export interface LighterTestBed {
  readonly exchange: SimExchange
  readonly fake: LighterFake
  readonly wallet: ReturnType<typeof privateKeyToAccount>
  readonly owner: string
  readonly accountIndex: number
  readonly cred: VenueCredential
}

const LIGHTER_TEST_CONFIG: BindingConfig = {
  feeApproval: true,
  builderAddress: `0x${'00'.repeat(20)}`,
  builderName: 'dn',
  lighterTestnet: false,
}

/**
 * Test kit: a simulated Lighter venue behind its protocol fake, a funded
 * viem wallet, and a credential bound end to end through the real binder
 * (prepare → the wallet signs every request → complete).
 * @internal
 */
export async function openLighterTestBed(
  venue: LighterVenue,
  seed: number,
  clock: Clock = { now: () => Date.now() },
  /** fake options beyond the bed's own (stream cadences, limits) */
  fakeOptions: Partial<LighterFakeOptions> = {},
): Promise<LighterTestBed> {
  const exchange = createSimExchange({ venue, seed, clock })
  const fake = await startLighterFake({
    exchange,
    venue,
    port: 0,
    now: () => clock.now(),
    // protocol tests send faster than a standard account may: the fake
    // (and the adapters under test) keep to the builder tier's limits
    rateLimits: { lighterTier: 'builder', now: Date.now },
    ...fakeOptions,
  })
  const wallet = privateKeyToAccount(generatePrivateKey())
  const owner = wallet.address.toLowerCase()
  const { accountIndex } = exchange.faucet(owner, 100_000)
  const binder = createLighterBinder({ venue, baseUrl: fake.url, clock })
  const target = { venue, accountIndex }
  const prepared = await binder.prepare(owner, target, LIGHTER_TEST_CONFIG)
  const signatures: Record<string, string> = {}
  for (const r of prepared.requests) {
    if (r.method !== 'personal_sign') throw new Error('Lighter signs messages')
    signatures[r.requestId] = await wallet.signMessage({
      message: r.payload.message,
    })
  }
  const result = await binder.complete(owner, {
    target,
    ...prepared,
    signatures,
  })
  if (result.outcome !== 'bound') {
    await fake.close()
    throw new Error(`binding failed: ${JSON.stringify(result)}`)
  }
  return {
    exchange,
    fake,
    wallet,
    owner,
    accountIndex,
    cred: {
      owner,
      venue,
      accountIndex: String(accountIndex),
      credentialRef: prepared.credentialRef,
      secret: prepared.secret,
    },
  }
}
