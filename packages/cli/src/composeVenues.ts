import {
  type BindingConfig,
  type MarketData,
  type Store,
  UnavailableError,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
  VenueUnavailableError,
} from '@dn/core'
import {
  createHyperliquidAdapter,
  createHyperliquidBinder,
  createSimBinders,
  type HyperliquidFake,
  type SimVenues,
  startHyperliquidFake,
} from '@dn/venues'

export interface ComposedVenues {
  readonly adapters: Record<VenueId, VenueAdapter>
  readonly binders: Record<VenueId, VenueBinder>
  readonly marketData: MarketData
  /** where `hl` is spoken to (the local protocol fake unless DN_HL_URL) */
  readonly hlUrl: string
  close(): Promise<void>
}

/**
 * The venues `dn up` trades on. `hl` speaks Hyperliquid's real protocol:
 * to a local fake over the simulated engine by default, or to `hlUrl`
 * (e.g. Hyperliquid's testnet). The other venues use paper adapters over
 * the simulated engines until their protocol adapters land.
 */
export async function composeVenues(
  sim: SimVenues,
  config: BindingConfig,
  hl: { url?: string | undefined; isMainnet: boolean },
  /** shares Hyperliquid nonces across processes when given */
  store?: Pick<Store, 'counters'>,
): Promise<ComposedVenues> {
  let fake: HyperliquidFake | undefined
  if (!hl.url)
    fake = await startHyperliquidFake({
      exchange: sim.exchanges.hl,
      port: 0,
      isMainnet: hl.isMainnet,
    })
  const hlUrl = hl.url ?? (fake as HyperliquidFake).url
  const adapters = {
    ...sim.adapters,
    hl: createHyperliquidAdapter({
      baseUrl: hlUrl,
      isMainnet: hl.isMainnet,
      ...(store
        ? {
            nonceSource: (signer: string, now: number) =>
              store.counters.next(`hl-nonce|${signer}`, now),
          }
        : {}),
    }),
  }
  const binders = {
    ...createSimBinders(sim, config),
    hl: createHyperliquidBinder({ baseUrl: hlUrl, isMainnet: hl.isMainnet }),
  }
  const marketData: MarketData = {
    rules: (venue, symbol) => adapters[venue].rules(symbol),
    async quote(venue, symbol) {
      try {
        return await adapters[venue].quote(symbol)
      } catch (cause) {
        if (!(cause instanceof VenueUnavailableError)) throw cause
        throw new UnavailableError(
          'market_data_unavailable',
          `${venue} market data is unavailable; retry later`,
          { cause },
        )
      }
    },
  }
  return {
    adapters,
    binders,
    marketData,
    hlUrl,
    close: async () => fake?.close(),
  }
}
