import {
  type BindingConfig,
  type Clock,
  type CompletionResult,
  type PreparedVenue,
  type SignRequest,
  systemClock,
  type VenueBinder,
  type VenueId,
  type VenueTarget,
  VenueUnavailableError,
} from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { prepareAsterAgent } from '../aster/binding/prepareAsterAgent.js'
import { requireAddress } from '../binding/signRequestKinds.js'
import { verifySignRequest } from '../binding/verifySignRequest.js'
import {
  HL_DEFAULT_SIGNATURE_CHAIN_ID,
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from '../hyperliquid/binding/approveAgentRequest.js'
import { lighterIntegratorConsentRequest } from '../lighter/binding/integratorConsentRequest.js'
import { lighterSignerChainId } from '../lighter/binding/lighterSignerChainId.js'
import {
  isLighterVenue,
  type LighterVenue,
} from '../lighter/binding/lighterVenue.js'
import { pickLighterApiKeySlot } from '../lighter/binding/pickLighterApiKeySlot.js'
import { prepareLighterBinding } from '../lighter/binding/prepareLighterBinding.js'
import type { SimExchange } from './simExchange.js'

/** A Lighter API key pair, 0x-hex (the Lighter signer's key generator). */
export interface LighterKeyPair {
  readonly privateKey: string
  readonly publicKey: string
}

/** What Lighter's ChangePubKey L1 message is built from. */
export interface ChangePubKeyMessageInput {
  readonly publicKey: string
  readonly nonce: number
  readonly accountIndex: number
  readonly apiKeyIndex: number
}

export interface SimBinderOptions {
  readonly venue: VenueId
  /** the simulated venue; its accounts are the ones that exist */
  readonly exchange: SimExchange
  /** nonces and Aster agent expiry @default systemClock */
  readonly clock?: Clock | undefined
  /**
   * The deployment this simulated venue is: a Lighter binding prepared for
   * another signer chain (`lighterTestnet`) fails `invalid_signing_chain`.
   */
  readonly config: BindingConfig
  /** `hyperliquidChain` / `AsterChain` 'Testnet' @default false */
  readonly testnet?: boolean | undefined
  /** Aster agent lifetime @default 365 days */
  readonly asterAgentTtlMs?: number | undefined
  /** Lighter key generation (the signer's `generateLighterKeyPair`) */
  readonly lighterKeys?: (() => LighterKeyPair) | undefined
  /** Lighter L1 message (the signer's `changePubKeyL1Message`) */
  readonly changePubKeyMessage?:
    | ((p: ChangePubKeyMessageInput) => string)
    | undefined
}

/** One authorization the simulated venue holds for an owner. */
export interface SimAuthorization {
  readonly venue: VenueId
  readonly credentialRef: string
  /** hl / aster agent name */
  readonly agentName: string | null
  /** Lighter account index and API-key slot */
  readonly accountIndex: number | null
  readonly apiKeyIndex: number | null
  /** Lighter: the registered public key */
  readonly publicKey: string | null
  /** Aster agent expiry, Unix ms */
  readonly expiresAt: number | null
  /** builder fee (hl, aster) or integrator (Lighter) approved */
  readonly feeApproved: boolean
}

/** The VenueBinder port over a simulated venue, plus test hooks. */
export interface SimBinder extends VenueBinder {
  /** what the venue has authorized for `owner` */
  authorizations(owner: string): readonly SimAuthorization[]
  /** test hook: the venue drops an authorization (revoked, deregistered) */
  revoke(owner: string, credentialRef: string): boolean
}

const DAY_MS = 86_400_000
const HL_AGENT_NAME = 'dn'

/**
 * Binding against a simulated venue, checked as the real venue checks it.
 *
 * - findAccount: `hl` an account exists; Lighter also that `accountIndex` is
 *   the owner's; Aster has no preflight (always found). listAccounts
 *   (Lighter): the owner's faucet account, if any.
 * - prepare: a fresh agent key (hl, aster) or Lighter API key (injected
 *   generator) in the lowest free slot 5..254 (not 157), the venue's sign
 *   requests, fee approvals when `config.feeApproval`.
 * - complete: the account still exists; every issued request is signed and
 *   recovers to the owner from the exact payload; the signed content is
 *   what this venue accepts (chain label, agent, Lighter message, nonce,
 *   signer chain); then the authorization is recorded. Idempotent.
 * - isUsable: the authorization is recorded, the account still exists and
 *   an Aster agent has not expired.
 *
 * Faults: `outage` makes every venue call throw VenueUnavailableError
 * (findAccount, Lighter prepare, complete, isUsable); `latencyMs` delays them.
 */
export function createSimBinder(options: SimBinderOptions): SimBinder {
  const { venue, exchange } = options
  if (exchange.venue !== venue) {
    throw new RangeError(
      `a ${exchange.venue} exchange cannot bind ${venue} accounts`,
    )
  }
  const clock = options.clock ?? systemClock
  const chainLabel = options.testnet ? 'Testnet' : 'Mainnet'
  /** by lowercased owner, then credentialRef */
  const registry = new Map<string, Map<string, SimAuthorization>>()
  /** Lighter slots handed out by prepare and not yet completed */
  const pendingSlots = new Map<number, Set<number>>()
  /** Lighter next nonce per `<accountIndex>:<apiKeyIndex>` */
  const slotNonces = new Map<string, number>()
  let lastMs = 0
  let lastUs = 0
  const nextMs = () => {
    lastMs = Math.max(clock.now(), lastMs + 1)
    return lastMs
  }
  const nextUs = () => {
    lastUs = Math.max(clock.now() * 1000, lastUs + 1)
    return lastUs
  }

  const gate = async (): Promise<void> => {
    const faults = exchange.faults()
    if (faults.outage) {
      throw new VenueUnavailableError(`${venue} (simulated) is unavailable`)
    }
    if (faults.latencyMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, faults.latencyMs))
    }
  }

  const accountState = (
    owner: string,
    accountIndex: number | null | undefined,
  ): 'found' | 'missing' | 'not_owned' => {
    if (venue === 'aster') return 'found'
    let index: number
    try {
      index = exchange.accountIndex(owner)
    } catch {
      return 'missing'
    }
    if (isLighterVenue(venue) && index !== accountIndex) return 'not_owned'
    return 'found'
  }

  const ownerEntries = (owner: string) => {
    const key = owner.toLowerCase()
    let entries = registry.get(key)
    if (!entries) {
      entries = new Map()
      registry.set(key, entries)
    }
    return entries
  }

  const usedSlots = (accountIndex: number): number[] => {
    const used = [...(pendingSlots.get(accountIndex) ?? [])]
    for (const entries of registry.values()) {
      for (const a of entries.values()) {
        if (a.accountIndex === accountIndex && a.apiKeyIndex !== null) {
          used.push(a.apiKeyIndex)
        }
      }
    }
    return used
  }

  const prepareHl = (target: VenueTarget, config: BindingConfig) => {
    const agentKey = generatePrivateKey()
    const agent = privateKeyToAccount(agentKey)
    const signatureChainId =
      target.signatureChainId ?? HL_DEFAULT_SIGNATURE_CHAIN_ID
    const nonce = nextMs()
    const requests: SignRequest[] = [
      hlApproveAgentRequest({
        agentAddress: agent.address,
        agentName: HL_AGENT_NAME,
        nonce,
        signatureChainId,
        testnet: options.testnet,
      }),
    ]
    if (config.feeApproval) {
      requests.push(
        hlApproveBuilderFeeRequest({
          builder: config.builderAddress,
          nonce: nextMs(),
          signatureChainId,
          testnet: options.testnet,
        }),
      )
    }
    return {
      requests,
      credentialRef: agent.address,
      secret: agentKey,
      context: {
        agentName: HL_AGENT_NAME,
        nonce: String(nonce),
        signatureChainId: String(signatureChainId),
        feeApproval: String(config.feeApproval),
      },
    }
  }

  const prepareAster = (owner: string, config: BindingConfig) =>
    prepareAsterAgent({
      owner,
      config,
      nonce: nextUs(),
      expired: clock.now() + (options.asterAgentTtlMs ?? 365 * DAY_MS),
      chain: chainLabel,
    })

  const prepareLighter = async (
    lighter: LighterVenue,
    owner: string,
    target: VenueTarget,
    config: BindingConfig,
  ) => {
    const { lighterKeys, changePubKeyMessage } = lighterFunctions(lighter)
    const accountIndex = target.accountIndex
    if (accountIndex === undefined || !Number.isSafeInteger(accountIndex)) {
      throw new RangeError(`${lighter} binding needs an accountIndex`)
    }
    await gate()
    const apiKeyIndex = pickLighterApiKeySlot(usedSlots(accountIndex))
    const pending = pendingSlots.get(accountIndex) ?? new Set()
    pending.add(apiKeyIndex)
    pendingSlots.set(accountIndex, pending)
    const nonce = slotNonces.get(`${accountIndex}:${apiKeyIndex}`) ?? 0
    const keys = lighterKeys()
    return prepareLighterBinding({
      venue: lighter,
      owner,
      config,
      accountIndex,
      apiKeyIndex,
      nonce,
      keys,
      message: changePubKeyMessage({
        publicKey: keys.publicKey,
        nonce,
        accountIndex,
        apiKeyIndex,
      }),
      consentNonce: nextMs(),
      nowMs: clock.now(),
    })
  }

  const lighterFunctions = (lighter: LighterVenue) => {
    const { lighterKeys, changePubKeyMessage } = options
    if (!lighterKeys || !changePubKeyMessage) {
      throw new Error(
        `simulated ${lighter} binding needs options.lighterKeys and options.changePubKeyMessage (from the Lighter signer)`,
      )
    }
    return { lighterKeys, changePubKeyMessage }
  }

  /** The venue's own checks of the signed content; null when accepted. */
  const contentProblem = (
    owner: string,
    entry: CompleteEntry,
  ): CompletionResult | null => {
    const ctx = entry.context
    for (const request of entry.requests) {
      if (request.venue !== venue) {
        return invalid(`${request.requestId} is not a ${venue} request`)
      }
      if (request.method !== 'eth_signTypedData_v4') continue
      const message = request.payload.message
      if (venue === 'hl') {
        const chainId = Number.parseInt(String(message.signatureChainId), 16)
        if (
          message.hyperliquidChain !== chainLabel ||
          request.payload.domain.chainId !== chainId
        ) {
          return invalid(`${request.requestId} was signed for another chain`)
        }
        if (
          request.action === 'approveAgent' &&
          String(message.agentAddress).toLowerCase() !==
            entry.credentialRef.toLowerCase()
        ) {
          return invalid('the approved agent is not the generated one')
        }
      }
      if (venue === 'aster') {
        if (message.AsterChain !== chainLabel) {
          return invalid(`${request.requestId} was signed for another chain`)
        }
        if (
          String(message.AgentAddress).toLowerCase() !==
          entry.credentialRef.toLowerCase()
        ) {
          return invalid('the approved agent is not the generated one')
        }
      }
    }
    if (!isLighterVenue(venue)) return null
    const expectedChain = lighterSignerChainId(
      venue,
      options.config.lighterTestnet,
    )
    if (Number(ctx.signerChainId) !== expectedChain) {
      return {
        outcome: 'failed',
        code: 'invalid_signing_chain',
        message: `${venue} signs with chain ${expectedChain}, the binding was prepared for ${ctx.signerChainId}; prepare a new binding`,
        retryable: false,
      }
    }
    const accountIndex = Number(ctx.accountIndex)
    const apiKeyIndex = Number(ctx.apiKeyIndex)
    const nonce = Number(ctx.nonce)
    for (const request of entry.requests) {
      if (request.method !== 'personal_sign') continue
      const expected =
        request.action === 'changePubKey'
          ? lighterFunctions(venue).changePubKeyMessage({
              publicKey: ctx.publicKey ?? '',
              nonce,
              accountIndex,
              apiKeyIndex,
            })
          : lighterIntegratorConsentRequest({
              venue,
              owner,
              nonce: ctx.consentNonce ?? '',
              timestamp: Number(ctx.consentTimestamp),
            }).payload.message
      if (request.payload.message !== expected) {
        return invalid(`${request.requestId} does not match the transaction`)
      }
    }
    const current = slotNonces.get(`${accountIndex}:${apiKeyIndex}`) ?? 0
    if (nonce !== current) {
      return {
        outcome: 'failed',
        code: 'invalid_nonce',
        message: `${venue} expected nonce ${current} for API key ${apiKeyIndex}, the binding signed ${nonce}; prepare a new binding`,
        retryable: false,
      }
    }
    return null
  }

  const record = (owner: string, entry: CompleteEntry): void => {
    const ctx = entry.context
    const entries = ownerEntries(owner)
    const lighter = isLighterVenue(venue)
    const authorization: SimAuthorization = {
      venue,
      credentialRef: entry.credentialRef,
      agentName: lighter ? null : (ctx.agentName ?? null),
      accountIndex: lighter ? Number(ctx.accountIndex) : null,
      apiKeyIndex: lighter ? Number(ctx.apiKeyIndex) : null,
      publicKey: lighter ? (ctx.publicKey ?? null) : null,
      expiresAt: venue === 'aster' ? Number(ctx.expired) : null,
      feeApproved: ctx.feeApproval === 'true',
    }
    if (venue === 'hl') {
      // a named agent replaces the agent of the same name
      for (const [ref, a] of entries) {
        if (a.agentName === authorization.agentName) entries.delete(ref)
      }
    }
    entries.set(entry.credentialRef, authorization)
    if (lighter) {
      const accountIndex = Number(ctx.accountIndex)
      const apiKeyIndex = Number(ctx.apiKeyIndex)
      pendingSlots.get(accountIndex)?.delete(apiKeyIndex)
      // ChangePubKey, then the integrator transaction, each use a nonce
      const used = authorization.feeApproved ? 2 : 1
      slotNonces.set(`${accountIndex}:${apiKeyIndex}`, Number(ctx.nonce) + used)
    }
  }

  const alreadyRecorded = (owner: string, entry: CompleteEntry): boolean => {
    const existing = registry.get(owner.toLowerCase())?.get(entry.credentialRef)
    if (!existing) return false
    return (
      !isLighterVenue(venue) || existing.publicKey === entry.context.publicKey
    )
  }

  return {
    venue,
    async findAccount(owner, target) {
      await gate()
      return accountState(owner, target.accountIndex)
    },
    // only Lighter names accounts by index
    ...(isLighterVenue(venue)
      ? {
          async listAccounts(owner: string): Promise<number[]> {
            await gate()
            try {
              return [exchange.accountIndex(owner)]
            } catch {
              return []
            }
          },
        }
      : {}),
    async prepare(owner, target, config): Promise<PreparedVenue> {
      requireAddress('owner', owner)
      if (target.venue !== venue) {
        throw new RangeError(`a ${venue} binder cannot prepare ${target.venue}`)
      }
      if (venue === 'hl') return prepareHl(target, config)
      if (venue === 'aster') return prepareAster(owner, config)
      return prepareLighter(venue, owner, target, config)
    },
    verify: verifySignRequest,
    async complete(owner, entry): Promise<CompletionResult> {
      await gate()
      if (alreadyRecorded(owner, entry)) return { outcome: 'bound' }
      const account = accountState(owner, entry.target.accountIndex)
      if (account !== 'found') {
        return {
          outcome: 'failed',
          code:
            account === 'missing'
              ? 'venue_account_not_found'
              : 'account_not_owned',
          message:
            account === 'missing'
              ? `${venue} has no account for ${owner}`
              : `${venue} account ${entry.target.accountIndex} does not belong to ${owner}`,
          retryable: false,
        }
      }
      const primary =
        venue === 'hl' || venue === 'aster' ? 'approveAgent' : 'changePubKey'
      if (!entry.requests.some((r) => r.action === primary)) {
        return invalid(`no ${venue}:${primary} request to complete`)
      }
      for (const request of entry.requests) {
        const signature = entry.signatures[request.requestId]
        if (signature === undefined) {
          return {
            outcome: 'failed',
            code: 'missing_signature',
            message: `${request.requestId} is not signed`,
            retryable: false,
          }
        }
        if (!(await verifySignRequest(request, signature, owner))) {
          return invalid(`${request.requestId} does not recover to ${owner}`)
        }
      }
      const problem = contentProblem(owner, entry)
      if (problem) return problem
      record(owner, entry)
      return { outcome: 'bound' }
    },
    async isUsable(owner, credentialRef) {
      await gate()
      const a = registry.get(owner.toLowerCase())?.get(credentialRef)
      if (!a) return false
      if (a.expiresAt !== null && a.expiresAt <= clock.now()) return false
      return accountState(owner, a.accountIndex) === 'found'
    },
    authorizations: (owner) => [
      ...(registry.get(owner.toLowerCase())?.values() ?? []),
    ],
    revoke: (owner, credentialRef) =>
      registry.get(owner.toLowerCase())?.delete(credentialRef) ?? false,
  }
}

type CompleteEntry = Parameters<VenueBinder['complete']>[1]

function invalid(message: string): CompletionResult {
  return {
    outcome: 'failed',
    code: 'invalid_signature',
    message,
    retryable: false,
  }
}
