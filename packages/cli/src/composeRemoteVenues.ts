import {
  VENUES,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
} from '@dn/core'
import { createSimRpcAdapter } from '@dn/venues/sim'
import {
  composeProtocolVenues,
  PROTOCOL_VENUES,
  type ProtocolUrls,
  type ProtocolVenueOptions,
} from './composeProtocolVenues.js'
import { adapterMarketData, type ComposedVenues } from './composeVenues.js'

/**
 * The venues of a process that does not run the simulator (`dn serve`,
 * `dn worker`): each venue's real protocol at its given URL, or at the
 * fake a running `dn up` publishes at `GET <simUrl>/venues` (asked only
 * when some venue has no URL). A venue with neither trades through the
 * simulator's RPC and has no binder.
 */
export async function composeRemoteVenues(
  simUrl: string,
  given: ProtocolUrls,
  options: ProtocolVenueOptions,
): Promise<
  ComposedVenues & { binders: Partial<Record<VenueId, VenueBinder>> }
> {
  // a deployment names every venue; only the demo asks the simulator
  const complete = PROTOCOL_VENUES.every((v) => given[v])
  const published = complete ? null : await publishedVenues(simUrl)
  const urls: ProtocolUrls = { ...published?.protocolUrls, ...given }
  // the simulator's settlements, for the venues spoken to through it
  const simFundingIntervalMs = Object.fromEntries(
    Object.entries(published?.fundingIntervalMs ?? {}).filter(
      ([v]) => !given[v as VenueId],
    ),
  )
  const protocol = composeProtocolVenues(urls, {
    ...options,
    simFundingIntervalMs,
  })
  const adapters = {} as Record<VenueId, VenueAdapter>
  for (const venue of VENUES) {
    adapters[venue] =
      protocol.adapters[venue] ??
      createSimRpcAdapter({ baseUrl: simUrl, venue })
  }
  return {
    adapters,
    binders: protocol.binders as Record<VenueId, VenueBinder>,
    marketData: adapterMarketData(adapters),
    protocolUrls: urls,
    simFundingIntervalMs,
    // the venues (or a simulator) run elsewhere: nothing counted here
    rateLimitUsage: () => ({}),
    seedBinding(venue) {
      throw new Error(`${venue} is not served by a local fake`)
    },
    // no local fake: the `dn up` that runs them saves them
    fakeSnapshots: () => ({}),
    fakesVersion: () => 0,
    close: async () => protocol.close(),
  }
}

interface PublishedVenues {
  readonly protocolUrls?: ProtocolUrls
  readonly fundingIntervalMs?: Partial<Record<VenueId, number>>
}

/** `GET <sim>/venues`; a simulator that publishes none answers `{}`. */
async function publishedVenues(simUrl: string): Promise<PublishedVenues> {
  const res = await fetch(new URL('/venues', simUrl)).catch((cause) => {
    throw new Error(
      `cannot reach the simulated venues at ${simUrl}: start \`dn up\` first (or pass --sim-url), or name every venue with DN_HL_URL, DN_LIGHTER_URL, DN_LIGHTER_MAINNET_URL and DN_ASTER_URL`,
      { cause },
    )
  })
  if (res.status === 404) return {}
  if (!res.ok) {
    throw new Error(`${simUrl}/venues answered HTTP ${res.status}`)
  }
  return (await res.json()) as PublishedVenues
}
