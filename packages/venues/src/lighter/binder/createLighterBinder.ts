import {
  type BindingConfig,
  type Clock,
  type PreparedVenue,
  type RequestPriority,
  systemClock,
  type VenueBinder,
  type VenueTarget,
  VenueUnavailableError,
} from '@dn/core'
import { requireAddress } from '../../binding/signRequestKinds.js'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import { LighterRejectedError } from '../adapter/lighterRejectedError.js'
import {
  createLighterTransport,
  type LighterBudget,
  lighterBudgetOf,
} from '../adapter/lighterTransport.js'
import { intField, isObj } from '../adapter/lighterWireValue.js'
import { lighterSignerChainId } from '../binding/lighterSignerChainId.js'
import {
  type LighterVenue,
  requireLighterVenue,
} from '../binding/lighterVenue.js'
import { pickLighterApiKeySlot } from '../binding/pickLighterApiKeySlot.js'
import { prepareLighterBinding } from '../binding/prepareLighterBinding.js'
import type { LighterTier } from '../limits/lighterLimits.js'
import { changePubKeyL1Message } from '../signer/changePubKey.js'
import { generateLighterKeyPair } from '../signer/lighterKeys.js'
import { completeLighterBinding } from './completeLighterBinding.js'
import {
  BINDING_PRIORITY,
  nextNonce,
  registeredKeys,
} from './lighterBinderVenue.js'

export interface LighterBinderOptions {
  readonly venue: LighterVenue
  readonly baseUrl: string
  /** the deployment signs for testnet chain 300 @default false */
  readonly testnet?: boolean | undefined
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof globalThis.fetch | undefined
  /** @default systemClock */
  readonly clock?: Clock | undefined
  /** per call, ms @default 10_000 */
  readonly timeout?: number | undefined
  /**
   * the account tier whose rate limits apply, when no `budget` is given
   * @default 'standard'
   */
  readonly tier?: LighterTier | undefined
  /** the deployment's budget, shared with its adapter @default its own */
  readonly budget?: LighterBudget | undefined
  /** how long the zero-fee integrator approval lasts @default 365 days */
  readonly approvalTtlMs?: number | undefined
}

/**
 * Binding on Lighter's real protocol. listAccounts: `accountsByL1Address`.
 * findAccount: the same (and `account?by=index` for an index not listed
 * there). prepare: a new
 * API key in the lowest free slot 5..254 (not 157) per `apikeys`, its
 * nonce from `nextNonce`, the owner's personal_sign of the real `Register
 * Lighter Account` message and, with fee approval, the one-line consent.
 * complete: ChangePubKey signed by the new key with the owner's `L1Sig`,
 * then ApproveIntegrator (four zero caps), each confirmed by `apikeys`
 * and `account.approved_integrators` before reporting `bound`. The reads
 * an HTTP caller waits on (listAccounts, findAccount, prepare, isUsable)
 * wait for budget as `interactive`; completion's as `urgent`.
 */
export function createLighterBinder(
  options: LighterBinderOptions,
): VenueBinder {
  const venue = requireLighterVenue(options.venue)
  const clock = options.clock ?? systemClock
  const transport = createLighterTransport({
    baseUrl: options.baseUrl,
    fetchFn: options.fetchFn ?? globalThis.fetch,
    timeout: options.timeout ?? 10_000,
    budget: lighterBudgetOf(options, clock),
  })

  /**
   * `accountsByL1Address`: the owner's account indexes ([] when none).
   * An HTTP caller waits on it unless the worker's completion asks.
   */
  async function listAccounts(
    owner: string,
    priority: RequestPriority = 'interactive',
  ): Promise<number[]> {
    let raw: Record<string, unknown>
    try {
      raw = await transport.get(
        'accountsByL1Address',
        { l1_address: owner },
        undefined,
        priority,
      )
    } catch (err) {
      if (err instanceof LighterRejectedError) {
        if (/account not found/i.test(err.reason)) return []
        throw new VenueUnavailableError(
          `lighter accountsByL1Address: ${err.reason}`,
          {
            cause: err,
          },
        )
      }
      throw err
    }
    const subs = Array.isArray(raw.sub_accounts) ? raw.sub_accounts : []
    return subs
      .map((s: unknown) => (isObj(s) ? intField(s.index) : null))
      .filter((i): i is number => i !== null)
  }

  async function findAccount(
    owner: string,
    target: VenueTarget,
    priority: RequestPriority = 'interactive',
  ): Promise<'found' | 'missing' | 'not_owned'> {
    const indexes = await listAccounts(owner, priority)
    if (indexes.length === 0) return 'missing'
    if (
      target.accountIndex === undefined ||
      indexes.includes(target.accountIndex)
    ) {
      return 'found'
    }
    // a sub-account may be missing from the list: ask the index itself
    try {
      const byIndex = await transport.get(
        'account',
        { by: 'index', value: target.accountIndex },
        undefined,
        priority,
      )
      const a = Array.isArray(byIndex.accounts)
        ? byIndex.accounts[0]
        : undefined
      const l1 =
        isObj(a) && typeof a.l1_address === 'string' ? a.l1_address : ''
      return l1.toLowerCase() === owner.toLowerCase() ? 'found' : 'not_owned'
    } catch (err) {
      if (!(err instanceof LighterRejectedError)) throw err
      // no such account at all: it is missing, not someone else's
      if (/not found/i.test(err.reason)) return 'missing'
      throw new VenueUnavailableError(`lighter account: ${err.reason}`, {
        cause: err,
      })
    }
  }

  async function prepare(
    owner: string,
    target: VenueTarget,
    config: BindingConfig,
  ): Promise<PreparedVenue> {
    requireAddress('owner', owner)
    if (target.venue !== venue) {
      throw new RangeError(`a ${venue} binder cannot prepare ${target.venue}`)
    }
    const accountIndex = target.accountIndex
    if (accountIndex === undefined || !Number.isSafeInteger(accountIndex)) {
      throw new RangeError(`${venue} binding needs an accountIndex`)
    }
    // the HTTP caller of prepare waits on these reads
    const used = await registeredKeys(
      transport,
      accountIndex,
      undefined,
      'interactive',
    )
    const apiKeyIndex = pickLighterApiKeySlot(used.keys())
    const nonce = await nextNonce(
      transport,
      accountIndex,
      apiKeyIndex,
      'interactive',
    )
    const keys = generateLighterKeyPair()
    return prepareLighterBinding({
      venue,
      owner,
      config,
      accountIndex,
      apiKeyIndex,
      nonce,
      keys,
      message: changePubKeyL1Message({
        publicKey: keys.publicKey,
        nonce,
        accountIndex,
        apiKeyIndex,
      }),
      consentNonce: clock.now(),
      nowMs: clock.now(),
    })
  }

  const binder: VenueBinder = {
    venue,
    findAccount: (owner, target) => findAccount(owner, target),
    listAccounts: (owner) => listAccounts(owner),
    prepare,
    verify: verifySignRequest,
    complete: (owner, entry) =>
      completeLighterBinding(
        {
          venue,
          transport,
          clock,
          chainId: lighterSignerChainId(venue, options.testnet ?? false),
          approvalTtlMs: options.approvalTtlMs ?? 365 * 86_400_000,
          findAccount: (o, t) => findAccount(o, t, BINDING_PRIORITY),
        },
        owner,
        entry,
      ),
    async isUsable(owner, credentialRef) {
      const m = /^(\d+):(\d+)$/.exec(credentialRef)
      if (!m) return false
      const accountIndex = Number(m[1])
      const slot = Number(m[2])
      if ((await findAccount(owner, { venue, accountIndex })) !== 'found') {
        return false
      }
      const keys = await registeredKeys(
        transport,
        accountIndex,
        slot,
        'interactive',
      )
      return keys.has(slot)
    },
  }
  return Object.freeze(binder)
}
