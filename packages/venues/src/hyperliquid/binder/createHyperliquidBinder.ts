import {
  type BindingConfig,
  type Clock,
  type CompletionResult,
  type PreparedVenue,
  type RequestBudget,
  type RequestPriority,
  type SignRequest,
  systemClock,
  UncertainSubmissionError,
  type VenueBinder,
  VenueRejectedError,
  type VenueTarget,
  VenueUnavailableError,
} from '@dn/core'
import type { Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import { createHlBudget, createHlTransport } from '../adapter/hlTransport.js'
import {
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from '../binding/approveAgentRequest.js'
import { splitSignature } from '../signing/splitSignature.js'

export interface HyperliquidBinderOptions {
  readonly baseUrl: string
  readonly isMainnet: boolean
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof fetch
  readonly clock?: Clock
  /** per call, ms @default 10_000 */
  readonly timeout?: number
  /** Hyperliquid's per-IP budget, shared with the adapter @default its own */
  readonly budget?: RequestBudget | undefined
}

/** The perps clearinghouse state of `user` (weight 2). */
const hlState = (user: string) => ({ type: 'clearinghouseState', user })

/** Whether a clearinghouse state shows margin or a position. */
function holdsMargin(state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false
  const s = state as {
    marginSummary?: { accountValue?: unknown }
    assetPositions?: unknown
  }
  const value = Number(s.marginSummary?.accountValue)
  return (
    (Number.isFinite(value) && value > 0) ||
    (Array.isArray(s.assetPositions) && s.assetPositions.length > 0)
  )
}

/** One agent name, so a rebind replaces the service's previous agent. */
export const HL_AGENT_NAME = 'dn'

/**
 * Binding on Hyperliquid's real protocol: the account preflight reads the
 * owner's clearinghouse state (and `userRole` for an owner holding no
 * margin); user-signed `approveAgent` (and `approveBuilderFee`) are posted
 * to `/exchange` with the wallet's signatures; an approval answered `ok` is
 * applied, one refused or lost is looked up (`extraAgents`,
 * `maxBuilderFee`) before the agent key is reported bound.
 */
export function createHyperliquidBinder(
  o: HyperliquidBinderOptions,
): VenueBinder {
  const clock = o.clock ?? systemClock
  const send = createHlTransport({
    baseUrl: o.baseUrl,
    fetchFn: o.fetchFn ?? globalThis.fetch,
    timeout: o.timeout ?? 10_000,
    budget: o.budget ?? createHlBudget({ clock }),
  })
  // a user waits on binding: its sends and reads go before routine
  // monitoring; the reads an HTTP caller waits on are `interactive`
  const post = async (
    path: '/info' | '/exchange',
    body: unknown,
    priority: RequestPriority = 'urgent',
  ): Promise<unknown> => {
    try {
      return await send(
        path,
        body,
        path === '/info' ? 'read' : 'write',
        priority,
      )
    } catch (err) {
      // an approval carries its own nonce: sending it again is refused or
      // finds the agent there, so a lost or refused answer is retried
      if (
        err instanceof UncertainSubmissionError ||
        err instanceof VenueRejectedError
      ) {
        throw new VenueUnavailableError(`hl ${path}: ${err.message}`, {
          cause: err,
        })
      }
      throw err
    }
  }
  const agents = async (
    owner: string,
    priority?: RequestPriority,
  ): Promise<{ address: string; validUntil?: number }[]> => {
    const list = await post(
      '/info',
      { type: 'extraAgents', user: owner },
      priority,
    )
    return Array.isArray(list)
      ? (list as { address: string; validUntil?: number }[])
      : []
  }
  const hasAgent = async (
    owner: string,
    ref: string,
    priority?: RequestPriority,
  ) =>
    (await agents(owner, priority)).some(
      (a) =>
        a.address.toLowerCase() === ref.toLowerCase() &&
        (a.validUntil === undefined || a.validUntil > clock.now()),
    )

  const builderApproved = async (owner: string, builder: string) => {
    const cap = await post('/info', {
      type: 'maxBuilderFee',
      user: owner,
      builder,
    })
    return typeof cap === 'number' && cap > 0
  }

  return {
    venue: 'hl',
    async findAccount(owner) {
      // An address that holds margin is a user, a vault or a sub-account,
      // and only a user has a key to sign with (vaults and sub-accounts
      // are acted for by their master's signature; an agent holds no
      // margin of its own): the owner signed this request, so a funded
      // owner is a user. That read weighs 2, `userRole` 60, and a person
      // binding waits on both: eight owners back to back would fill dn's
      // share of Hyperliquid's weight for a minute with userRole alone.
      if (holdsMargin(await post('/info', hlState(owner), 'interactive'))) {
        return 'found'
      }
      const r = (await post(
        '/info',
        { type: 'userRole', user: owner },
        'interactive',
      )) as { role?: string }
      if (r.role === 'missing') return 'missing'
      return r.role === 'user' ? 'found' : 'not_owned'
    },
    async prepare(
      _owner: string,
      target: VenueTarget,
      config: BindingConfig,
    ): Promise<PreparedVenue> {
      const secret = generatePrivateKey()
      const agentAddress = privateKeyToAccount(secret).address
      const nonce = clock.now()
      const common = {
        signatureChainId: target.signatureChainId,
        testnet: !o.isMainnet,
      }
      const requests: SignRequest[] = [
        hlApproveAgentRequest({
          ...common,
          agentAddress,
          agentName: HL_AGENT_NAME,
          nonce,
        }) as SignRequest,
      ]
      if (config.feeApproval) {
        requests.push(
          hlApproveBuilderFeeRequest({
            ...common,
            builder: config.builderAddress,
            nonce: nonce + 1,
          }) as SignRequest,
        )
      }
      return {
        requests,
        credentialRef: agentAddress,
        secret,
        context: { nonce: String(nonce) },
      }
    },
    verify: (request, signature, owner) =>
      verifySignRequest(request, signature, owner),
    async complete(owner, entry): Promise<CompletionResult> {
      for (const request of entry.requests) {
        if (request.method !== 'eth_signTypedData_v4') continue
        const signature = entry.signatures[request.requestId]
        if (!signature) {
          return {
            outcome: 'failed',
            code: 'missing_signature',
            message: `${request.requestId} is not signed`,
            retryable: false,
          }
        }
        const action = request.payload.message
        const answer = (await post('/exchange', {
          action,
          nonce: action.nonce,
          signature: splitSignature(signature as Hex),
        })) as { status?: string; response?: unknown }
        if (answer.status !== 'ok') {
          // the same approval sent twice is refused for its nonce: if the
          // agent is already there, the first send went through
          if (
            request.action === 'approveAgent' &&
            (await hasAgent(owner, entry.credentialRef))
          )
            continue
          if (
            request.action === 'approveBuilderFee' &&
            (await builderApproved(owner, String(action.builder)))
          )
            continue
          return {
            outcome: 'failed',
            code: 'venue_rejected',
            message: String(answer.response ?? 'refused'),
            retryable: false,
          }
        }
      }
      // every approval answered `ok`: Hyperliquid answers an action once
      // it is applied, so the agent is there (a refused one was looked up
      // above); no extraAgents read (weight 20) to confirm it
      return { outcome: 'bound' }
    },
    isUsable: (owner, ref) => hasAgent(owner, ref, 'interactive'),
  }
}
