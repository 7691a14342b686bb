import {
  type BindingConfig,
  CredentialUnavailableError,
  createAesGcmSecrets,
  type RequestBudget,
  resolveCredential,
  type Store,
  silentLogger,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
  type WorkerLogger,
} from '@dn/core'
import { type DnMetrics, meteredFetch } from '@dn/server'
import {
  asterWsUrl,
  createAsterAdapter,
  createAsterBinder,
  createAsterBudget,
  createAsterMarketStream,
  createHlBudget,
  createHlMarketStream,
  createHyperliquidAdapter,
  createHyperliquidBinder,
  createLighterAccountStreams,
  createLighterAdapter,
  createLighterBinder,
  createLighterBudget,
  createLighterMarketStream,
  createLighterNonceManager,
  hlWsUrl,
  LIGHTER_INTEGRATOR_INDEX,
  LIGHTER_TIERS,
  type LighterNonceManager,
  type LighterTier,
  lighterWsUrl,
} from '@dn/venues'
import type { Command } from 'commander'
import { deriveKey } from './masterKey.js'
import { processLogger } from './processLogger.js'
import { bindingConfigFromEnv, envFlag } from './runtimeConfig.js'

/** Where each venue's real protocol is spoken (a venue or its local fake). */
export type ProtocolUrls = Readonly<Partial<Record<VenueId, string>>>

/** The venues with a protocol adapter, in the order they are composed. */
export const PROTOCOL_VENUES = [
  'hl',
  'lighter',
  'lighter-mainnet',
  'aster',
] as const satisfies readonly VenueId[]

export interface ProtocolVenueOptions {
  /** Hyperliquid mainnet (`Mainnet`, source `a`) or testnet */
  readonly hlMainnet: boolean
  /** Aster testnet (agent chain 714, `AsterChain` Testnet) */
  readonly asterTestnet: boolean
  /** builder fees, Lighter's signer chain (testnet 300) */
  readonly config: BindingConfig
  /**
   * share of every venue's published rate limits this process may spend
   * (`DN_VENUE_BUDGET_SHARE`) @default 0.5
   */
  readonly budgetShare?: number | undefined
  /**
   * where a venue's rate-limit refusal and each failed venue call are
   * logged @default not logged
   */
  readonly logger?: WorkerLogger | undefined
  /**
   * the process's metrics: every venue call, each budget's use and the
   * venues' rate-limit refusals @default not measured
   */
  readonly metrics?: DnMetrics | undefined
  /**
   * read marks and funding from each venue's WebSocket, REST as the
   * fallback (`DN_VENUE_STREAMS`) @default true
   */
  readonly streams?: boolean | undefined
  /** the Lighter account tier whose limits apply (`DN_LIGHTER_TIER`) @default 'standard' */
  readonly lighterTier?: LighterTier | undefined
  /**
   * shares nonces and every venue's request budget across the processes
   * of a deployment when given
   */
  readonly store?:
    | (Pick<Store, 'counters'> & Partial<Pick<Store, 'venueBudgets'>>)
    | undefined
  /**
   * The decrypted credential of a binding, when its `credentialRef` is the
   * one asked for: Aster checks an agent by a request the agent signs
   */
  readonly storedSecret?:
    | ((
        owner: string,
        venue: VenueId,
        credentialRef: string,
      ) => Promise<string | null>)
    | undefined
  /**
   * How often each simulated venue settles funding, when not hourly
   * (`dn up --funding-interval`): its adapter's next settlement and funding
   * reads follow it. Real venues are never named here.
   */
  readonly simFundingIntervalMs?:
    | Readonly<Partial<Record<VenueId, number>>>
    | undefined
}

interface ProtocolVenues {
  readonly adapters: Partial<Record<VenueId, VenueAdapter>>
  readonly binders: Partial<Record<VenueId, VenueBinder>>
  /** Closes the venues' streams. */
  close(): void
}

/** DN_VENUE_BUDGET_SHARE's default, as the budgets' own. */
const DEFAULT_BUDGET_SHARE = 0.5

/** Contract: 15 tenths of a basis point (0.015%), doubled on Lighter pairs. */
const HL_BUILDER_TENTHS_BP = 15
const ASTER_BUILDER_RATE = '0.00015'

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
  const { store, config } = options
  const fees = config.feeApproval
  const share = options.budgetShare
  /** the venues' streams, market and user, closed with the composition */
  const streams: { close(): void }[] = []
  const streaming = options.streams ?? true
  const opened = <S extends { close(): void }>(s: S): S => {
    streams.push(s)
    return s
  }
  // every process on the store spends one budget per venue and host
  const { logger, metrics } = options
  /** each venue's calls measured and their failures logged */
  const fetchOf = (venue: VenueId) =>
    logger || metrics
      ? {
          fetchFn: meteredFetch(venue, {
            metrics,
            logger: logger ?? silentLogger,
          }),
        }
      : {}
  const watched = <B extends RequestBudget>(venue: VenueId, budget: B): B => {
    metrics?.watchBudget(venue, budget, share ?? DEFAULT_BUDGET_SHARE)
    return budget
  }
  const budgetOptions = (venue: VenueId, url: string) => ({
    share,
    ...(store?.venueBudgets
      ? {
          shared: {
            repo: store.venueBudgets,
            prefix: `${venue}|${new URL(url).host}`,
          },
        }
      : {}),
    // a refusal for rate is the venue's warning: an operator sees it
    onHoldOff: (e: { name: string; forMs: number; reason: string }) => {
      metrics?.rateLimited('venue', venue)
      logger?.error('venue rate limit: nothing is sent until it passes', {
        venue,
        budget: e.name,
        holdMs: e.forMs,
        answer: e.reason,
      })
    },
    ...(logger
      ? {
          onSharedError: (err: unknown) =>
            logger.error('shared venue budget unavailable', {
              venue,
              error: err instanceof Error ? err.message : String(err),
            }),
        }
      : {}),
  })
  if (urls.hl) {
    // one budget per venue: its adapter and binder spend the same IP limit
    const budget = watched('hl', createHlBudget(budgetOptions('hl', urls.hl)))
    adapters.hl = createHyperliquidAdapter({
      baseUrl: urls.hl,
      ...fetchOf('hl'),
      isMainnet: options.hlMainnet,
      budget,
      fundingIntervalMs: options.simFundingIntervalMs?.hl,
      ...(streaming
        ? {
            marketStream: opened(
              createHlMarketStream({ url: hlWsUrl(urls.hl) }),
            ),
          }
        : {}),
      ...(fees
        ? {
            builder: {
              address: config.builderAddress,
              feeTenthsBp: HL_BUILDER_TENTHS_BP,
            },
          }
        : {}),
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
      ...fetchOf('hl'),
      isMainnet: options.hlMainnet,
      budget,
    })
  }
  // one nonce count per (account, API key) of each Lighter deployment:
  // the two are separate chains whose account indexes coincide (one
  // count for both sent each other's nonces, refused as `invalid nonce`
  // and resent), unless both URLs name the same one. Other processes on
  // the same key are resynchronized on `invalid nonce`.
  const lighterNonces = new Map<string, LighterNonceManager>()
  for (const venue of ['lighter', 'lighter-mainnet'] as const) {
    const baseUrl = urls[venue]
    if (!baseUrl) continue
    const nonces = lighterNonces.get(baseUrl) ?? createLighterNonceManager()
    lighterNonces.set(baseUrl, nonces)
    const tier = options.lighterTier ?? 'standard'
    const budget = watched(
      venue,
      createLighterBudget({ tier, ...budgetOptions(venue, baseUrl) }),
    )
    adapters[venue] = createLighterAdapter({
      venue,
      baseUrl,
      ...fetchOf(venue),
      tier,
      budget,
      fundingIntervalMs: options.simFundingIntervalMs?.[venue],
      ...(streaming
        ? {
            marketStream: (symbolOf: (id: number) => string | undefined) =>
              opened(
                createLighterMarketStream({
                  url: lighterWsUrl(baseUrl),
                  symbolOf,
                }),
              ),
            // user streams: the busiest accounts' positions by account_all
            accountStreams: ({ authToken }) =>
              opened(
                createLighterAccountStreams({
                  url: lighterWsUrl(baseUrl),
                  authToken,
                }),
              ),
          }
        : {}),
      testnet: config.lighterTestnet,
      nonces,
      integratorAccountIndex: fees ? LIGHTER_INTEGRATOR_INDEX[venue] : null,
    })
    binders[venue] = createLighterBinder({
      venue,
      baseUrl,
      ...fetchOf(venue),
      budget,
      testnet: config.lighterTestnet,
    })
  }
  if (urls.aster) {
    const budget = watched(
      'aster',
      createAsterBudget(budgetOptions('aster', urls.aster)),
    )
    const wsUrl = asterWsUrl(urls.aster)
    const marketStream = streaming
      ? opened(createAsterMarketStream({ url: wsUrl }))
      : undefined
    const aster = createAsterAdapter({
      baseUrl: urls.aster,
      ...fetchOf('aster'),
      budget,
      // the streamed accounts' positions come from their user streams
      ...(marketStream ? { marketStream, userStreams: { url: wsUrl } } : {}),
      testnet: options.asterTestnet,
      ...(fees
        ? {
            builder: {
              address: config.builderAddress,
              feeRate: ASTER_BUILDER_RATE,
            },
          }
        : {}),
      ...(store
        ? {
            // microsecond nonces from the database, shared by every worker
            nonceSource: (signer: string, nowUs: number) =>
              store.counters.next(`aster-nonce|${signer}`, nowUs),
          }
        : {}),
    })
    adapters.aster = aster
    // the user streams end with the composition, as the market stream does
    opened({ close: () => aster.closeUserStreams() })
    const secretOf = options.storedSecret
    binders.aster = createAsterBinder({
      baseUrl: urls.aster,
      ...fetchOf('aster'),
      budget,
      testnet: options.asterTestnet,
      ...(secretOf
        ? { agentSecret: (owner, ref) => secretOf(owner, 'aster', ref) }
        : {}),
    })
  }
  return {
    adapters,
    binders,
    close() {
      for (const s of streams) s.close()
    },
  }
}

/** Protocol URLs from flags, then the environment (`DN_HL_URL`, ...). */
export function protocolUrlsFromEnv(
  env: NodeJS.ProcessEnv,
  flags: VenueUrlFlags = {},
): ProtocolUrls {
  const urls: Partial<Record<VenueId, string>> = {}
  const set = (venue: VenueId, value: string | undefined) => {
    if (value) urls[venue] = value
  }
  set('hl', flags.hlUrl ?? env.DN_HL_URL)
  set('lighter', flags.lighterUrl ?? env.DN_LIGHTER_URL)
  set('lighter-mainnet', flags.lighterMainnetUrl ?? env.DN_LIGHTER_MAINNET_URL)
  set('aster', flags.asterUrl ?? env.DN_ASTER_URL)
  return urls
}

/**
 * The protocol options of a process: networks and fees from the
 * environment, nonces and stored credentials from its store.
 */
export function protocolVenueOptions(
  env: NodeJS.ProcessEnv,
  store: Pick<
    Store,
    'counters' | 'bindings' | 'venueBudgets' | 'sharedTransaction'
  >,
  masterKey: Buffer,
): ProtocolVenueOptions {
  const secrets = createAesGcmSecrets(deriveKey(masterKey, 'venue-credentials'))
  return {
    hlMainnet: !envFlag(env.DN_HL_TESTNET, false),
    asterTestnet: envFlag(env.DN_ASTER_TESTNET, false),
    config: bindingConfigFromEnv(env),
    budgetShare: budgetShareFromEnv(env),
    streams: envFlag(env.DN_VENUE_STREAMS, true),
    logger: processLogger(),
    lighterTier: lighterTierFromEnv(env),
    // every process on the store spends one budget per venue, and a
    // restarted one finds what its predecessor spent
    store: inSharedCommits(store),
    async storedSecret(owner, venue, credentialRef) {
      try {
        const cred = await resolveCredential(store, secrets, owner, venue)
        return cred.credentialRef === credentialRef ? cred.secret : null
      } catch (err) {
        if (err instanceof CredentialUnavailableError) return null
        throw err
      }
    },
  }
}

/**
 * Nonces and budget reservations, each in the store's shared commit: the
 * nonces and reservations of concurrent requests (and the order writes
 * beside them) cost one commit, not one each.
 */
function inSharedCommits(
  store: Pick<Store, 'counters' | 'venueBudgets' | 'sharedTransaction'>,
): Pick<Store, 'counters' | 'venueBudgets'> {
  return {
    counters: {
      next: (name, floor) =>
        store.sharedTransaction((tx) => tx.counters.next(name, floor)),
    },
    venueBudgets: {
      reserve: (bucket, nowMs, windowMs, ceiling, weight) =>
        store.sharedTransaction((tx) =>
          tx.venueBudgets.reserve(bucket, nowMs, windowMs, ceiling, weight),
        ),
      release: (bucket, reservedAtMs, windowMs, weight) =>
        store.sharedTransaction((tx) =>
          tx.venueBudgets.release(bucket, reservedAtMs, windowMs, weight),
        ),
    },
  }
}

/** `DN_VENUE_BUDGET_SHARE`: a fraction in (0, 1]; a bad value stops the start. */
function budgetShareFromEnv(env: NodeJS.ProcessEnv): number {
  const raw = env.DN_VENUE_BUDGET_SHARE
  if (raw === undefined || raw === '') return DEFAULT_BUDGET_SHARE
  const share = Number(raw)
  if (!(share > 0 && share <= 1)) {
    throw new RangeError(
      `DN_VENUE_BUDGET_SHARE must be a number above 0 and at most 1 (the share of each venue's published rate limits to use), not ${JSON.stringify(raw)}`,
    )
  }
  return share
}

/** `DN_LIGHTER_TIER`: the Lighter account tier whose limits apply. */
function lighterTierFromEnv(env: NodeJS.ProcessEnv): LighterTier {
  const raw = env.DN_LIGHTER_TIER ?? 'standard'
  if (!(LIGHTER_TIERS as readonly string[]).includes(raw)) {
    throw new RangeError(
      `DN_LIGHTER_TIER must be one of ${LIGHTER_TIERS.join(', ')}, not ${JSON.stringify(raw)}`,
    )
  }
  return raw as LighterTier
}

/** The `--<venue>-url` flags of the commands that trade. */
export interface VenueUrlFlags {
  readonly hlUrl?: string | undefined
  readonly lighterUrl?: string | undefined
  readonly lighterMainnetUrl?: string | undefined
  readonly asterUrl?: string | undefined
}

/** Adds one base-URL flag per protocol venue, each with its variable. */
export function addVenueUrlOptions(cmd: Command, fallback: string): Command {
  return cmd
    .option(
      '--hl-url <url>',
      `Hyperliquid API base URL (default: ${fallback}; DN_HL_URL)`,
    )
    .option(
      '--lighter-url <url>',
      `Lighter (lighter) API base URL (default: ${fallback}; DN_LIGHTER_URL)`,
    )
    .option(
      '--lighter-mainnet-url <url>',
      `Lighter mainnet API base URL (default: ${fallback}; DN_LIGHTER_MAINNET_URL)`,
    )
    .option(
      '--aster-url <url>',
      `Aster API base URL (default: ${fallback}; DN_ASTER_URL)`,
    )
}
