import { composeVenues, PROTOCOL_VENUES } from '@dn/cli'
import { createSimVenues } from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { FEE_CONFIG } from './support/bindingFixtures.js'

/**
 * A binding written straight into a local fake (for benchmarks) is one
 * the venue accepts: the adapters read and trade with the credential
 * over the real protocol, as after a signed binding.
 */
describe('seedBinding at the local fakes', () => {
  const sim = createSimVenues({ seed: 29 })
  let venues: Awaited<ReturnType<typeof composeVenues>>
  beforeAll(async () => {
    venues = await composeVenues(
      sim,
      {},
      {
        hlMainnet: true,
        asterTestnet: false,
        config: FEE_CONFIG,
        lighterTier: 'builder',
      },
    )
  })
  afterAll(() => venues?.close())

  test.each(PROTOCOL_VENUES)(
    '%s: the seeded credential reads positions and places an order',
    async (venue) => {
      const owner = privateKeyToAccount(
        generatePrivateKey(),
      ).address.toLowerCase()
      const { accountIndex } = sim.faucet(venue, owner)
      const lighter = venue.startsWith('lighter')
      const seeded = venues.seedBinding(
        venue,
        owner,
        lighter ? accountIndex : undefined,
      )
      const cred = {
        owner,
        venue,
        accountIndex: lighter ? String(accountIndex) : null,
        credentialRef: seeded.credentialRef,
        secret: seeded.secret,
      }
      const adapter = venues.adapters[venue]
      expect(await adapter.positions(cred)).toEqual([])
      const market = venue === 'aster' ? 'ETHUSDT' : 'ETH'
      const rules = await adapter.rules(market)
      const quote = await adapter.quote(market)
      const price = Number(quote.mark) * 1.02
      const tick = Number(rules?.tickSize)
      const placed = await adapter.place(cred, {
        market,
        side: 'long',
        size: '0.01',
        price: (Math.round(Number(price.toPrecision(5)) / tick) * tick).toFixed(
          Math.max(0, -Math.floor(Math.log10(tick))),
        ),
        timeInForce: 'ioc',
        reduceOnly: false,
        clientOrderId: `0x${crypto.randomUUID().replaceAll('-', '')}`,
        validUntil: Date.now() + 30_000,
      })
      expect(placed.state).toBe('filled')
      const held = await adapter.positions(cred)
      expect(held.map((p) => [p.market, p.size])).toEqual([[market, '0.01']])
    },
  )

  test('a venue not served by a local fake cannot be seeded', async () => {
    const remote = await composeVenues(
      sim,
      { hl: 'http://127.0.0.1:9' },
      { hlMainnet: true, asterTestnet: false, config: FEE_CONFIG },
    )
    try {
      expect(() => remote.seedBinding('hl', '0xabc')).toThrow(
        'hl is not served by a local fake',
      )
      expect(() => remote.seedBinding('lighter', '0xabc')).toThrow(
        'a Lighter binding needs an accountIndex',
      )
    } finally {
      await remote.close()
    }
  })
})
