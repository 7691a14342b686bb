import type {
  ApiKeyLookup,
  BindingConfig,
  CommandDeps,
  RateLimiter,
  Secrets,
  VenueBinder,
  VenueId,
} from '@dn/core'
import type { Logger } from './logger.js'
import type { DnMetrics } from './metrics/createDnMetrics.js'
import type { RequestLogWriter } from './requestLogWriter.js'

/** Everything the HTTP edge needs; built once in the composition root. */
export interface ServerDeps extends CommandDeps {
  /** where authentication finds keys: a revocation-checked cache */
  readonly apiKeys: ApiKeyLookup
  /** HMAC key for API-key secrets */
  readonly pepper: Buffer
  /** BINDING_AUTH_DOMAIN */
  readonly authDomain: string
  /** per key and route family: 120 per minute */
  readonly rateLimiter: RateLimiter
  /** per client IP, counting only failed authentications */
  readonly authFailureLimiter: RateLimiter
  readonly logger: Logger
  /** the process's metrics, served on `/metrics` @default none: 404 */
  readonly metrics?: DnMetrics | undefined
  /** a bearer token `/metrics` requires (DN_METRICS_TOKEN) @default open */
  readonly metricsToken?: string | undefined
  /** batches request-log rows */
  readonly requestLogs: RequestLogWriter
  /** venue binding; without it the binding routes answer 503 */
  readonly binding?:
    | {
        readonly binders: Readonly<Record<VenueId, VenueBinder>>
        readonly secrets: Secrets
        readonly config: BindingConfig
      }
    | undefined
}
