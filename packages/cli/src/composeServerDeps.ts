import {
  type BindingConfig,
  type Clock,
  createAesGcmSecrets,
  createApiKeyCache,
  createMemoryRateLimiter,
  createStoreRateLimiter,
  DEFAULT_BINDING_AUTH_DOMAIN,
  DEFAULT_RATE_LIMIT,
  type MarketData,
  REQUEST_LOG_KEEP,
  type Store,
  systemClock,
  type VenueBinder,
  type VenueId,
  type VenueOrderLookup,
} from '@dn/core'
import {
  createRequestLogWriter,
  type DnMetrics,
  type Logger,
  type ServerDeps,
} from '@dn/server'
import { deriveKey } from './masterKey.js'
import { processLogger } from './processLogger.js'

export interface ComposeServerDepsOptions {
  readonly store: Store
  readonly markets: MarketData
  readonly masterKey: Buffer
  /** @default 'local' */
  readonly env?: string
  /** @default 'dn' */
  readonly authDomain?: string
  /** @default true */
  readonly workerResize?: boolean
  /** requests per minute per key and family @default 120 */
  readonly rateLimit?: number
  /** keep the budget in the database (several servers) @default false */
  readonly sharedRateLimit?: boolean
  readonly clock?: Clock
  readonly logger?: Logger
  /** served on `/metrics` @default none (404) */
  readonly metrics?: DnMetrics
  /** bearer token `/metrics` asks for (DN_METRICS_TOKEN) @default open */
  readonly metricsToken?: string | undefined
  readonly venueOrders?: VenueOrderLookup
  /** venue binders and config; without them binding routes answer 503 */
  readonly binding?: {
    binders: Readonly<Record<VenueId, VenueBinder>>
    config: BindingConfig
  }
}

/** The composition root of the HTTP service: picks every adapter. */
export function composeServerDeps(o: ComposeServerDepsOptions): ServerDeps {
  const clock = o.clock ?? systemClock
  const policy = {
    ...DEFAULT_RATE_LIMIT,
    limit: o.rateLimit ?? DEFAULT_RATE_LIMIT.limit,
  }
  const logger = o.logger ?? processLogger()
  // the queues behind this API, read at each scrape
  o.metrics?.watchQueues(o.store, clock)
  return {
    store: o.store,
    clock,
    markets: o.markets,
    env: o.env ?? 'local',
    workerResize: o.workerResize ?? true,
    venueOrders: o.venueOrders,
    binding: o.binding && {
      ...o.binding,
      secrets: createAesGcmSecrets(deriveKey(o.masterKey, 'venue-credentials')),
    },
    apiKeys: createApiKeyCache({ store: o.store }),
    pepper: deriveKey(o.masterKey, 'api-key-pepper'),
    authDomain: o.authDomain ?? DEFAULT_BINDING_AUTH_DOMAIN,
    rateLimiter: o.sharedRateLimit
      ? createStoreRateLimiter({ store: o.store, policy, clock })
      : createMemoryRateLimiter({ policy, clock }),
    authFailureLimiter: createMemoryRateLimiter({ clock }),
    logger,
    metrics: o.metrics,
    metricsToken: o.metricsToken,
    requestLogs: createRequestLogWriter({
      store: o.store,
      logger,
      keep: REQUEST_LOG_KEEP,
    }),
  }
}
