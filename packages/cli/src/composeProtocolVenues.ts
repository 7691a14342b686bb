import type { Store, VenueAdapter, VenueBinder, VenueId } from '@dn/core'
import { createHyperliquidAdapter, createHyperliquidBinder } from '@dn/venues'

/** Where each venue's real protocol is spoken (a venue or its local fake). */
export type ProtocolUrls = Readonly<Partial<Record<VenueId, string>>>

export interface ProtocolVenueOptions {
  /** Hyperliquid mainnet (`Mainnet`, source `a`) or testnet */
  readonly hlMainnet: boolean
  /** shares nonces across processes when given */
  readonly store?: Pick<Store, 'counters'> | undefined
}

export interface ProtocolVenues {
  readonly adapters: Partial<Record<VenueId, VenueAdapter>>
  readonly binders: Partial<Record<VenueId, VenueBinder>>
}

/**
 * The real-protocol adapter and binder of every venue that has a URL. The
 * same composition serves `dn up` (against its fakes or real venues) and a
 * separate `dn worker`, so both send the same bytes the same way.
 */
export function composeProtocolVenues(
  urls: ProtocolUrls,
  options: ProtocolVenueOptions,
): ProtocolVenues {
  const adapters: Partial<Record<VenueId, VenueAdapter>> = {}
  const binders: Partial<Record<VenueId, VenueBinder>> = {}
  const { store } = options
  if (urls.hl) {
    adapters.hl = createHyperliquidAdapter({
      baseUrl: urls.hl,
      isMainnet: options.hlMainnet,
      ...(store
        ? {
            // nonces from the database: two workers never reuse one
            nonceSource: (signer: string, now: number) =>
              store.counters.next(`hl-nonce|${signer}`, now),
          }
        : {}),
    })
    binders.hl = createHyperliquidBinder({
      baseUrl: urls.hl,
      isMainnet: options.hlMainnet,
    })
  }
  return { adapters, binders }
}

/** Protocol URLs from the environment (`DN_HL_URL`, ...), flags first. */
export function protocolUrlsFromEnv(
  env: NodeJS.ProcessEnv,
  flags: { hlUrl?: string | undefined } = {},
): ProtocolUrls {
  const hl = flags.hlUrl ?? env.DN_HL_URL
  return hl ? { hl } : {}
}
