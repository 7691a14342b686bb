import {
  type Clock,
  type DecimalInput,
  type MarketData,
  systemClock,
  UnavailableError,
  VENUES,
  type VenueAdapter,
  type VenueId,
  VenueUnavailableError,
} from '@dn/core'
import { createPaperAdapter } from './paperAdapter.js'
import { createSimExchange, type SimExchange } from './simExchange.js'
import type { SimMarket } from './simMarkets.js'
import type { SimStateSnapshot } from './simStateSnapshot.js'
import {
  createUnderlyingPrices,
  type UnderlyingPricesSnapshot,
} from './underlyingPrices.js'

export interface SimVenuesOptions {
  /** @default 1 */
  readonly seed?: number
  /** @default systemClock */
  readonly clock?: Clock
  /** @default SIM_MARKETS */
  readonly markets?: readonly SimMarket[]
  /** @default 1000 */
  readonly stepMs?: number
  /** funding settles at every multiple of this, ms @default 3_600_000 */
  readonly fundingIntervalMs?: number | undefined
  /**
   * every venue quotes one underlying price per asset, each with a small
   * basis of its own (`dn up`); off, every market walks alone (the seeded
   * runs tests pin numbers on) @default false
   */
  readonly sharedUnderlying?: boolean | undefined
  /** saved venues to go on from (`toSnapshot()`) */
  readonly restore?: SimVenuesSnapshot | undefined
}

/** Every engine and the shared prices, as JSON. */
export interface SimVenuesSnapshot {
  readonly venues: Partial<Record<VenueId, SimStateSnapshot>>
  readonly underlying: UnderlyingPricesSnapshot | null
}

/** Every simulated venue, its paper adapter, and market data over them. */
export interface SimVenues {
  readonly exchanges: Readonly<Record<VenueId, SimExchange>>
  readonly adapters: Readonly<Record<VenueId, VenueAdapter>>
  readonly marketData: MarketData
  /** the clock every engine runs on (protocol fakes share it) */
  readonly clock: Clock
  /** credits collateral (default USD 100 000), creating the account */
  faucet(
    venue: VenueId,
    owner: string,
    collateralUsd?: DecimalInput,
  ): { accountIndex: number }
  /** every engine brought up to now, then the shared prices */
  toSnapshot(): SimVenuesSnapshot
  /** the sum of the engines' versions (see SimExchange.version) */
  version(): number
}

export const DEFAULT_FAUCET_USD = 100_000

/**
 * One engine per venue id, all on the same seed and clock (each market's
 * walk hashes its venue and symbol into the seed, so venues still differ).
 */
export function createSimVenues(options: SimVenuesOptions = {}): SimVenues {
  const clock = options.clock ?? systemClock
  const seed = options.seed ?? 1
  const restore = options.restore
  const underlying =
    options.sharedUnderlying || restore?.underlying
      ? createUnderlyingPrices(seed, restore?.underlying ?? undefined)
      : undefined
  const exchanges = {} as Record<VenueId, SimExchange>
  const adapters = {} as Record<VenueId, VenueAdapter>
  for (const venue of VENUES) {
    exchanges[venue] = createSimExchange({
      venue,
      seed,
      clock,
      ...(options.markets ? { markets: options.markets } : {}),
      ...(options.stepMs ? { stepMs: options.stepMs } : {}),
      fundingIntervalMs: options.fundingIntervalMs,
      underlying,
      restore: restore?.venues[venue],
    })
    adapters[venue] = createPaperAdapter(exchanges[venue])
  }
  const marketData: MarketData = {
    rules: (venue, symbol) => adapters[venue].rules(symbol),
    symbols: async (venue) => (await adapters[venue].symbols?.()) ?? [],
    async quote(venue, symbol) {
      try {
        return await adapters[venue].quote(symbol)
      } catch (err) {
        if (!(err instanceof VenueUnavailableError)) throw err
        throw new UnavailableError(
          'market_data_unavailable',
          `${venue} market data is unavailable`,
          { cause: err },
        )
      }
    },
  }
  return {
    exchanges,
    adapters,
    marketData,
    clock,
    faucet: (venue, owner, usd = DEFAULT_FAUCET_USD) =>
      exchanges[venue].faucet(owner, usd),
    toSnapshot() {
      // engines first: bringing them to now walks the shared prices too
      const venues = Object.fromEntries(
        VENUES.map((v) => [v, exchanges[v].toSnapshot()]),
      )
      return { venues, underlying: underlying?.toSnapshot() ?? null }
    },
    version: () => VENUES.reduce((n, v) => n + exchanges[v].version(), 0),
  }
}
