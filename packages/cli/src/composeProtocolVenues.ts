import {
  type BindingConfig,
  CredentialUnavailableError,
  createAesGcmSecrets,
  resolveCredential,
  type Store,
  type VenueAdapter,
  type VenueBinder,
  type VenueId,
} from '@dn/core'
import {
  createAsterAdapter,
  createAsterBinder,
  createHyperliquidAdapter,
  createHyperliquidBinder,
  createLighterAdapter,
  createLighterBinder,
  createLighterNonceManager,
  LIGHTER_INTEGRATOR_INDEX,
} from '@dn/venues'
import type { Command } from 'commander'
import { deriveKey } from './masterKey.js'
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
  /** shares nonces across processes when given */
  readonly store?: Pick<Store, 'counters'> | undefined
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
}

export interface ProtocolVenues {
  readonly adapters: Partial<Record<VenueId, VenueAdapter>>
  readonly binders: Partial<Record<VenueId, VenueBinder>>
}

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
  if (urls.hl) {
    adapters.hl = createHyperliquidAdapter({
      baseUrl: urls.hl,
      isMainnet: options.hlMainnet,
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
      isMainnet: options.hlMainnet,
    })
  }
  // one nonce count per (account, API key) for both Lighter deployments;
  // other processes on the same key are resynchronized on `invalid nonce`
  const lighterNonces = createLighterNonceManager()
  for (const venue of ['lighter', 'lighter-mainnet'] as const) {
    const baseUrl = urls[venue]
    if (!baseUrl) continue
    adapters[venue] = createLighterAdapter({
      venue,
      baseUrl,
      testnet: config.lighterTestnet,
      nonces: lighterNonces,
      integratorAccountIndex: fees ? LIGHTER_INTEGRATOR_INDEX[venue] : null,
    })
    binders[venue] = createLighterBinder({
      venue,
      baseUrl,
      testnet: config.lighterTestnet,
    })
  }
  if (urls.aster) {
    adapters.aster = createAsterAdapter({
      baseUrl: urls.aster,
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
    const secretOf = options.storedSecret
    binders.aster = createAsterBinder({
      baseUrl: urls.aster,
      testnet: options.asterTestnet,
      ...(secretOf
        ? { agentSecret: (owner, ref) => secretOf(owner, 'aster', ref) }
        : {}),
    })
  }
  return { adapters, binders }
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
  store: Pick<Store, 'counters' | 'bindings'>,
  masterKey: Buffer,
): ProtocolVenueOptions {
  const secrets = createAesGcmSecrets(deriveKey(masterKey, 'venue-credentials'))
  return {
    hlMainnet: !envFlag(env.DN_HL_TESTNET, false),
    asterTestnet: envFlag(env.DN_ASTER_TESTNET, false),
    config: bindingConfigFromEnv(env),
    store,
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
