import type { Clock, RequestPriority, VenueOrder } from '@dn/core'
import type { LighterVenue } from '../binding/lighterVenue.js'
import type { LighterNonceManager } from './createLighterNonceManager.js'
import type { LighterSigningKey } from './lighterCredential.js'
import type { LighterMarket } from './lighterMarkets.js'
import type { LighterAuth, LighterTransport } from './lighterTransport.js'

/** What the adapter's operations share; built once by createLighterAdapter. */
export interface LighterAdapterContext {
  readonly venue: LighterVenue
  /** the signing chain of this deployment (466324 / 304 / 300) */
  readonly chainId: number
  readonly clock: Clock
  readonly transport: LighterTransport
  readonly nonces: LighterNonceManager
  /** resends after `invalid nonce` before giving up */
  readonly nonceRetries: number
  /** order lookups after an accepted create before reporting it pending */
  readonly confirmAttempts: number
  readonly confirmDelayMs: number
  /** attribute 1 on every order; null sends none */
  readonly integratorAccountIndex: number | null
  /** a listed market; VenueRejectedError when not listed */
  market(symbol: string): Promise<LighterMarket>
  /**
   * The account's auth token (cached until near expiry): reads sent with
   * it spend the account's own limit, not the IP's
   */
  authToken(key: LighterSigningKey): LighterAuth
  /**
   * the order with this client order index on `market`, or null
   * @param priority @default 'urgent'
   */
  findOrder(
    key: LighterSigningKey,
    market: LighterMarket,
    clientOrderId: string,
    priority?: RequestPriority,
  ): Promise<VenueOrder | null>
}
