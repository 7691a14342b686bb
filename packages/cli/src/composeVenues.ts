import {
  type BindingConfig,
  type MarketData,
  UnavailableError,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
  VenueUnavailableError,
} from '@dn/core'
import {
  ASTER_MAX_BUILDER_FEE_RATE,
  generateLighterKeyPair,
  HL_MAX_BUILDER_FEE_RATE,
  pickLighterApiKeySlot,
} from '@dn/venues'
import {
  type AsterFake,
  type FakeBucketUsage,
  type HyperliquidFake,
  type LighterFake,
  type SimFakeSnapshots,
  type SimVenues,
  startAsterFake,
  startHyperliquidFake,
  startLighterFake,
} from '@dn/venues/sim'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  composeProtocolVenues,
  PROTOCOL_VENUES,
  type ProtocolUrls,
  type ProtocolVenueOptions,
} from './composeProtocolVenues.js'

export interface ComposedVenues {
  readonly adapters: Record<VenueId, VenueAdapter>
  readonly binders: Record<VenueId, VenueBinder>
  readonly marketData: MarketData
  /** where each venue is spoken to (a local fake unless given) */
  readonly protocolUrls: ProtocolUrls
  /** how often each simulated venue settles funding, ms */
  readonly simFundingIntervalMs: Readonly<Partial<Record<VenueId, number>>>
  /** what each local fake counted against its venue's limits */
  rateLimitUsage(): Partial<Record<VenueId, FakeBucketUsage[]>>
  /**
   * Writes at a local fake what a completed binding of `owner` leaves
   * there (an approved agent, a registered API key), without the venue
   * requests, and returns the credential to store: for benchmarks that
   * need more bound accounts than the venues' limits let them bind in
   * reasonable time. Lighter needs the account's `accountIndex`.
   * @throws Error for a venue served elsewhere than by a local fake
   */
  seedBinding(
    venue: VenueId,
    owner: string,
    accountIndex?: number,
  ): { credentialRef: string; secret: string }
  /** the local fakes' own state (agents, keys, nonces, orders), as JSON */
  fakeSnapshots(): SimFakeSnapshots
  /** grows with every change at a local fake worth saving */
  fakesVersion(): number
  close(): Promise<void>
}

/**
 * The venues `dn up` trades on, each through its real protocol: to a
 * local fake over the simulated engine by default, or to the URL given
 * (e.g. Hyperliquid's testnet).
 */
export async function composeVenues(
  sim: SimVenues,
  given: ProtocolUrls,
  options: ProtocolVenueOptions,
  /** the fakes' state saved by an earlier `dn up` (with `sim`'s engines) */
  restore: SimFakeSnapshots = {},
  /** where each local fake listens; a venue not named takes a free port */
  ports: Readonly<Partial<Record<VenueId, number>>> = {},
  /**
   * saves the simulator: a fake's answer that acknowledged a change waits
   * for it, so what a venue acknowledged survives a crash @default none
   */
  durable?: () => Promise<void>,
): Promise<ComposedVenues> {
  const closers: Array<() => Promise<void>> = []
  const usage: Partial<Record<VenueId, () => FakeBucketUsage[]>> = {}
  const seeders: Partial<
    Record<VenueId, (owner: string, accountIndex?: number) => Seeded>
  > = {}
  const saved: Partial<Record<VenueId, () => unknown>> = {}
  const versions: Array<() => number> = []
  const urls: Partial<Record<VenueId, string>> = { ...given }
  const now = () => sim.clock.now()
  // the fakes refuse what the venues would, by the wall clock (as the
  // adapters' budgets count), with the Lighter tier this process assumes
  const rateLimits = {
    enforce: true,
    lighterTier: options.lighterTier ?? 'standard',
    now: Date.now,
  }
  try {
    for (const venue of PROTOCOL_VENUES) {
      if (urls[venue]) continue
      const port = ports[venue] ?? 0
      const fake =
        venue === 'hl'
          ? await startHyperliquidFake({
              exchange: sim.exchanges.hl,
              port,
              isMainnet: options.hlMainnet,
              now,
              rateLimits,
              restore: restore.hl,
              durable,
            })
          : venue === 'aster'
            ? await startAsterFake({
                exchange: sim.exchanges.aster,
                port,
                testnet: options.asterTestnet,
                now,
                rateLimits,
                restore: restore.aster,
                durable,
              })
            : await startLighterFake({
                exchange: sim.exchanges[venue],
                venue,
                port,
                testnet: options.config.lighterTestnet,
                now,
                rateLimits,
                restore: restore[venue],
                durable,
              })
      closers.push(fake.close)
      usage[venue] = fake.rateLimitUsage
      saved[venue] = fake.toSnapshot
      versions.push(fake.version)
      seeders[venue] = seederOf(fake, options.config)
      urls[venue] = fake.url
    }
  } catch (err) {
    for (const close of closers) await close()
    throw err
  }
  // the adapters of the venues simulated here follow their settlements
  const simFundingIntervalMs = Object.fromEntries(
    Object.keys(saved).map((v) => [
      v,
      sim.exchanges[v as VenueId].fundingIntervalMs,
    ]),
  )
  const protocol = composeProtocolVenues(urls, {
    ...options,
    simFundingIntervalMs,
  })
  const adapters = protocol.adapters as Record<VenueId, VenueAdapter>
  const binders = protocol.binders as Record<VenueId, VenueBinder>
  return {
    adapters,
    binders,
    marketData: adapterMarketData(adapters),
    protocolUrls: urls,
    simFundingIntervalMs,
    rateLimitUsage: () =>
      Object.fromEntries(
        Object.entries(usage).map(([v, read]) => [v, read()]),
      ) as Partial<Record<VenueId, FakeBucketUsage[]>>,
    seedBinding(venue, owner, accountIndex) {
      const seed = seeders[venue]
      if (!seed) throw new Error(`${venue} is not served by a local fake`)
      return seed(owner, accountIndex)
    },
    fakeSnapshots: () =>
      Object.fromEntries(
        Object.entries(saved).map(([v, snapshot]) => [v, snapshot()]),
      ) as SimFakeSnapshots,
    fakesVersion: () => versions.reduce((n, version) => n + version(), 0),
    close: async () => {
      protocol.close()
      for (const close of closers) await close()
    },
  }
}

type Seeded = { credentialRef: string; secret: string }

/** How a binding is written straight into one kind of fake. */
function seederOf(
  fake: HyperliquidFake | AsterFake | LighterFake,
  config: BindingConfig,
): (owner: string, accountIndex?: number) => Seeded {
  if ('seedApiKey' in fake) {
    return (_owner, accountIndex) => {
      if (accountIndex === undefined) {
        throw new RangeError('a Lighter binding needs an accountIndex')
      }
      const keys = generateLighterKeyPair()
      const slot = pickLighterApiKeySlot([])
      fake.seedApiKey(accountIndex, slot, keys.publicKey)
      return {
        credentialRef: `${accountIndex}:${slot}`,
        secret: keys.privateKey,
      }
    }
  }
  return (owner) => {
    const secret = generatePrivateKey()
    const agent = privateKeyToAccount(secret).address
    // as the signed approvals do: the builder's fee cap with the agent
    const maxFeeRate =
      'builderCap' in fake
        ? ASTER_MAX_BUILDER_FEE_RATE
        : HL_MAX_BUILDER_FEE_RATE
    fake.seedAgent(
      owner,
      agent,
      config.feeApproval
        ? { address: config.builderAddress, maxFeeRate }
        : undefined,
    )
    return { credentialRef: agent, secret }
  }
}

/** Market data read through the adapters, unavailability made explicit. */
export function adapterMarketData(
  adapters: Readonly<Record<VenueId, VenueAdapter>>,
): MarketData {
  /** a venue that cannot answer now is a 503 the caller may retry */
  const unavailable = async <T>(venue: VenueId, read: () => Promise<T>) => {
    try {
      return await read()
    } catch (cause) {
      if (!(cause instanceof VenueUnavailableError)) throw cause
      throw new UnavailableError(
        'market_data_unavailable',
        `${venue} market data is unavailable; retry later`,
        { cause },
      )
    }
  }
  return {
    rules: (venue, symbol) => adapters[venue].rules(symbol),
    async symbols(venue) {
      const adapter = adapters[venue]
      if (!adapter.symbols) {
        throw new UnavailableError(
          'market_data_unavailable',
          `${venue} cannot list its markets on this deployment`,
        )
      }
      return unavailable(venue, async () => (await adapter.symbols?.()) ?? [])
    },
    quote: (venue, symbol) =>
      unavailable(venue, () => adapters[venue].quote(symbol)),
  }
}
