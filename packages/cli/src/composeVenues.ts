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
  createSimBinders,
  type SimVenues,
  startHyperliquidFake,
} from '@dn/venues'
import {
  composeProtocolVenues,
  type ProtocolUrls,
} from './composeProtocolVenues.js'

export interface ComposedVenues {
  readonly adapters: Record<VenueId, VenueAdapter>
  readonly binders: Record<VenueId, VenueBinder>
  readonly marketData: MarketData
  /** where each protocol venue is spoken to (a local fake unless given) */
  readonly protocolUrls: ProtocolUrls
  close(): Promise<void>
}

/**
 * The venues `dn up` trades on. Protocol venues speak their real protocol:
 * to a local fake over the simulated engine by default, or to the URL
 * given (e.g. Hyperliquid's testnet). The others use paper adapters over
 * the simulated engines until their protocol adapters land.
 */
export async function composeVenues(
  sim: SimVenues,
  config: BindingConfig,
  given: ProtocolUrls,
  options: {
    readonly hlMainnet: boolean
    /** shares nonces across processes when given */
    readonly store?: Pick<Store, 'counters'> | undefined
  },
): Promise<ComposedVenues> {
  const closers: Array<() => Promise<void>> = []
  const urls: Partial<Record<VenueId, string>> = { ...given }
  if (!urls.hl) {
    const fake = await startHyperliquidFake({
      exchange: sim.exchanges.hl,
      port: 0,
      isMainnet: options.hlMainnet,
    })
    closers.push(fake.close)
    urls.hl = fake.url
  }
  const protocol = composeProtocolVenues(urls, options)
  const adapters = { ...sim.adapters, ...protocol.adapters }
  const binders = { ...createSimBinders(sim, config), ...protocol.binders }
  return {
    adapters,
    binders,
    marketData: adapterMarketData(adapters),
    protocolUrls: urls,
    close: async () => {
      for (const close of closers) await close()
    },
  }
}

/** Market data read through the adapters, unavailability made explicit. */
export function adapterMarketData(
  adapters: Readonly<Record<VenueId, VenueAdapter>>,
): MarketData {
  return {
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
}
