import {
  type BindingConfig,
  type Clock,
  type CompletionResult,
  type PreparedVenue,
  type RequestBudget,
  type RequestPriority,
  type SignRequest,
  systemClock,
  type VenueBinder,
  VenueRejectedError,
  type VenueTarget,
} from '@dn/core'
import { type Hex, isAddressEqual } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  requireAddress,
  type TypedDataSignRequest,
} from '../../binding/signRequestKinds.js'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import { AsterRejectedError } from '../adapter/asterRejectedError.js'
import {
  createAsterBudget,
  createAsterTransport,
} from '../adapter/asterTransport.js'
import { isObj } from '../adapter/asterWire.js'
import { prepareAsterAgent } from '../binding/prepareAsterAgent.js'
import {
  ASTER_AGENT_CHAIN_ID,
  signAsterMessage,
} from '../signing/asterMessage.js'
import { createAsterNonces } from '../signing/asterNonces.js'
import { formEncode } from '../signing/formEncode.js'
import { managementParams } from '../signing/managementTypedData.js'

export interface AsterBinderOptions {
  readonly baseUrl: string
  /** `AsterChain` 'Testnet' and agent chain 714 @default false */
  readonly testnet?: boolean | undefined
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof globalThis.fetch | undefined
  /** Aster's per-IP budget, shared with the adapter @default its own */
  readonly budget?: RequestBudget | undefined
  readonly clock?: Clock | undefined
  /** per call, ms @default 10_000 */
  readonly timeout?: number | undefined
  /** agent lifetime @default 365 days */
  readonly agentTtlMs?: number | undefined
  /**
   * The stored agent key of a binding, so isUsable can sign the live
   * `GET /fapi/v3/agent` check (the port passes only the agent address).
   * Keys this binder completed are remembered in-process either way.
   */
  readonly agentSecret?:
    | ((owner: string, credentialRef: string) => Promise<string | null>)
    | undefined
}

const DAY_MS = 86_400_000

/**
 * Binding on Aster's real protocol. No account preflight (Aster has no
 * look-up; `findAccount` is always `found`). `prepare` generates an agent
 * key and issues the `aster:approveAgent` sign request (builder, 0.1% cap
 * and builder name embedded when `config.feeApproval`), exactly as the
 * simulated binder does. `complete` checks the signature and content as
 * the simulated binder does, posts `POST /fapi/v3/approveAgent` (params in
 * the signed order + `signature` + `signatureChainId`), then lists
 * `GET /fapi/v3/agent` signed by the new agent before reporting `bound`.
 */
export function createAsterBinder(o: AsterBinderOptions): VenueBinder {
  const clock = o.clock ?? systemClock
  const chainLabel = o.testnet ? 'Testnet' : 'Mainnet'
  const chainId = o.testnet
    ? ASTER_AGENT_CHAIN_ID.testnet
    : ASTER_AGENT_CHAIN_ID.mainnet
  const send = createAsterTransport({
    baseUrl: o.baseUrl,
    fetchFn: o.fetchFn ?? globalThis.fetch,
    timeout: o.timeout ?? 10_000,
    budget: o.budget ?? createAsterBudget({ clock }),
  })
  const nonces = createAsterNonces(clock)
  const known = new Map<string, string>()

  /**
   * Is `agent` listed for `owner` and unexpired? Asked as the agent. A
   * user waits on binding: `urgent` for the worker's completion,
   * `interactive` for a check an HTTP caller waits on.
   */
  async function listed(
    owner: string,
    secret: string,
    priority: RequestPriority = 'urgent',
  ): Promise<boolean> {
    const agent = privateKeyToAccount(secret as Hex).address
    // Aster keeps nonces per user: one counter per owner for the approval
    // and the agent's checks
    const msg = formEncode([
      ['nonce', String(nonces.next(owner))],
      ['user', owner],
      ['signer', agent],
    ])
    const signature = await signAsterMessage({
      privateKey: secret as Hex,
      msg,
      chainId,
    })
    let raw: unknown
    try {
      raw = await send({
        method: 'GET',
        path: '/fapi/v3/agent',
        params: `${msg}&signature=${signature}`,
        kind: 'read',
        priority,
        account: owner,
      })
    } catch (err) {
      // an agent the venue does not know cannot sign: that is a "no"
      if (err instanceof VenueRejectedError) return false
      throw err
    }
    return (
      Array.isArray(raw) &&
      raw.some(
        (a) =>
          isObj(a) &&
          typeof a.agentAddress === 'string' &&
          isAddressEqual(a.agentAddress as Hex, agent) &&
          typeof a.expired === 'number' &&
          a.expired > clock.now(),
      )
    )
  }

  return {
    venue: 'aster',
    findAccount: async () => 'found',
    async prepare(
      owner: string,
      target: VenueTarget,
      config: BindingConfig,
    ): Promise<PreparedVenue> {
      requireAddress('owner', owner)
      if (target.venue !== 'aster') {
        throw new RangeError(`an aster binder cannot prepare ${target.venue}`)
      }
      return prepareAsterAgent({
        owner,
        config,
        nonce: nonces.next(owner),
        expired: clock.now() + (o.agentTtlMs ?? 365 * DAY_MS),
        chain: chainLabel,
      })
    },
    verify: verifySignRequest,
    async complete(owner, entry): Promise<CompletionResult> {
      const request = entry.requests.find(
        (r): r is TypedDataSignRequest =>
          r.venue === 'aster' &&
          r.action === 'approveAgent' &&
          r.method === 'eth_signTypedData_v4',
      )
      if (!request) return invalid('no aster:approveAgent request to complete')
      const signature = entry.signatures[request.requestId]
      if (signature === undefined) {
        return {
          outcome: 'failed',
          code: 'missing_signature',
          message: `${request.requestId} is not signed`,
          retryable: false,
        }
      }
      const problem = await contentProblem(owner, entry, request, signature)
      if (problem) return problem
      try {
        await send({
          method: 'POST',
          path: '/fapi/v3/approveAgent',
          params: formEncode(managementParams(request, signature)),
          kind: 'write',
          account: owner,
        })
      } catch (err) {
        if (!(err instanceof AsterRejectedError)) throw err
        // a repeated completion is refused for its spent nonce: the first
        // send went through when the agent is already listed
        if (await listed(owner, entry.secret)) {
          known.set(key(owner, entry.credentialRef), entry.secret)
          return { outcome: 'bound' }
        }
        return {
          outcome: 'failed',
          code:
            err.venueCode === -1022 ? 'invalid_signature' : 'venue_rejected',
          message: `aster refused the agent approval: ${err.reason} (${err.venueCode})`,
          retryable: false,
        }
      }
      if (!(await listed(owner, entry.secret))) return { outcome: 'confirming' }
      known.set(key(owner, entry.credentialRef), entry.secret)
      return { outcome: 'bound' }
    },
    async isUsable(owner, credentialRef) {
      const secret =
        known.get(key(owner, credentialRef)) ??
        (await o.agentSecret?.(owner, credentialRef)) ??
        null
      if (!secret || !/^0x[0-9a-fA-F]{64}$/.test(secret)) return false
      if (
        !isAddressEqual(
          privateKeyToAccount(secret as Hex).address,
          credentialRef as Hex,
        )
      ) {
        return false
      }
      return listed(owner, secret, 'interactive')
    },
  }

  /** The simulated binder's checks, before anything is sent. */
  async function contentProblem(
    owner: string,
    entry: Parameters<VenueBinder['complete']>[1],
    request: TypedDataSignRequest,
    signature: string,
  ): Promise<CompletionResult | null> {
    for (const r of entry.requests) {
      if (r.venue !== 'aster') {
        return invalid(`${r.requestId} is not an aster request`)
      }
      const s = entry.signatures[r.requestId]
      if (
        s === undefined ||
        !(await verifySignRequest(r as SignRequest, s, owner))
      ) {
        return invalid(`${r.requestId} does not recover to ${owner}`)
      }
    }
    const message = request.payload.message
    if (message.AsterChain !== chainLabel) {
      return invalid(`${request.requestId} was signed for another chain`)
    }
    if (
      String(message.AgentAddress).toLowerCase() !==
        entry.credentialRef.toLowerCase() ||
      privateKeyToAccount(entry.secret as Hex).address.toLowerCase() !==
        entry.credentialRef.toLowerCase()
    ) {
      return invalid('the approved agent is not the generated one')
    }
    return signature ? null : invalid('empty signature')
  }
}

const key = (owner: string, ref: string) =>
  `${owner.toLowerCase()}|${ref.toLowerCase()}`

function invalid(message: string): CompletionResult {
  return {
    outcome: 'failed',
    code: 'invalid_signature',
    message,
    retryable: false,
  }
}
