import {
  type Clock,
  type CompletionResult,
  UncertainSubmissionError,
  type VenueBinder,
  type VenueTarget,
} from '@dn/core'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import {
  isInvalidNonce,
  LIGHTER_CODES,
  LighterRejectedError,
} from '../adapter/lighterRejectedError.js'
import type { LighterTransport } from '../adapter/lighterTransport.js'
import { LIGHTER_INTEGRATOR_INDEX } from '../binding/integratorConsentRequest.js'
import type { LighterVenue } from '../binding/lighterVenue.js'
import { approveIntegrator } from '../signer/approveIntegrator.js'
import { changePubKey, changePubKeyL1Message } from '../signer/changePubKey.js'
import {
  approvedIntegrators,
  nextNonce,
  registeredKeys,
} from './lighterBinderVenue.js'

interface CompleteLighterDeps {
  readonly venue: LighterVenue
  readonly transport: LighterTransport
  readonly clock: Clock
  /** the chain this deployment verifies signatures for */
  readonly chainId: number
  readonly approvalTtlMs: number
  findAccount(
    owner: string,
    target: VenueTarget,
  ): Promise<'found' | 'missing' | 'not_owned'>
}

type Entry = Parameters<VenueBinder['complete']>[1]

const TX_TTL_MS = 10 * 60_000 - 1000
const failed = (
  code: string,
  message: string,
  retryable = false,
): CompletionResult => ({ outcome: 'failed', code, message, retryable })

/**
 * Completes a Lighter binding: checks the prepared chain and the wallet's
 * signatures locally, registers the key with ChangePubKey unless
 * `apikeys` already shows it (so calling again is safe), approves the
 * integrator with four zero caps when fee approval was prepared, and
 * reports `bound` only once both are visible at the venue. A send whose
 * answer was lost is `confirming`; a refusal is `failed` with a code.
 *
 * @throws {VenueUnavailableError} when the venue cannot be asked.
 */
export async function completeLighterBinding(
  deps: CompleteLighterDeps,
  owner: string,
  entry: Entry,
): Promise<CompletionResult> {
  const ctx = entry.context
  const { venue, transport: t } = deps
  if (Number(ctx.signerChainId) !== deps.chainId) {
    return failed(
      'invalid_signing_chain',
      `${venue} signs with chain ${deps.chainId}, the binding was prepared for ${ctx.signerChainId}; prepare a new binding`,
    )
  }
  const accountIndex = Number(ctx.accountIndex)
  const apiKeyIndex = Number(ctx.apiKeyIndex)
  const nonce = Number(ctx.nonce)
  const publicKey = (ctx.publicKey ?? '').replace(/^0x/, '').toLowerCase()
  const request = entry.requests.find((r) => r.action === 'changePubKey')
  if (request?.method !== 'personal_sign') {
    return failed('invalid_signature', `no ${venue}:changePubKey request`)
  }
  const expected = changePubKeyL1Message({
    publicKey,
    nonce,
    accountIndex,
    apiKeyIndex,
  })
  if (request.payload.message !== expected) {
    return failed(
      'invalid_signature',
      `${request.requestId} does not match the transaction`,
    )
  }
  for (const r of entry.requests) {
    const signature = entry.signatures[r.requestId]
    if (signature === undefined) {
      return failed('missing_signature', `${r.requestId} is not signed`)
    }
    if (!(await verifySignRequest(r, signature, owner))) {
      return failed(
        'invalid_signature',
        `${r.requestId} does not recover to ${owner}`,
      )
    }
  }
  const account = await deps.findAccount(owner, entry.target)
  if (account !== 'found') {
    return account === 'missing'
      ? failed(
          'venue_account_not_found',
          `${venue} has no account for ${owner}`,
        )
      : failed(
          'account_not_owned',
          `${venue} account ${accountIndex} does not belong to ${owner}`,
        )
  }
  const registered = async () =>
    (await registeredKeys(t, accountIndex, apiKeyIndex)).get(apiKeyIndex) ===
    publicKey
  if (!(await registered())) {
    try {
      const tx = changePubKey({
        chainId: deps.chainId,
        nonce,
        expiredAt: deps.clock.now() + TX_TTL_MS,
        accountIndex,
        apiKeyIndex,
        privateKey: entry.secret,
        l1Sig: entry.signatures[request.requestId] ?? '',
      })
      await t.sendTx(tx.txType, tx.txInfo, owner)
    } catch (err) {
      const refused = refusal(err)
      if (refused?.outcome === 'failed' && refused.code === 'venue_rejected') {
        // the L2 signature is ours, by the key we just made: the venue
        // verifying it against another chain is the one way it fails
        if (/signature/i.test(refused.message)) {
          return failed(
            'invalid_signing_chain',
            `${venue} refused a ChangePubKey signed for chain ${deps.chainId} (${refused.message}); the deployment signs with another chain: fix the configuration and prepare a new binding`,
          )
        }
      }
      if (refused) return refused
      if (!(err instanceof UncertainSubmissionError)) throw err
    }
    if (!(await registered())) return { outcome: 'confirming' }
  }
  if (ctx.feeApproval === 'true') {
    const integrator = LIGHTER_INTEGRATOR_INDEX[venue]
    const approved = () =>
      approvedIntegrators(t, accountIndex, deps.clock.now()).then((s) =>
        s.has(integrator),
      )
    if (!(await approved())) {
      const problem = await sendApproval(deps, entry.secret, {
        owner,
        accountIndex,
        apiKeyIndex,
        integrator,
      })
      if (problem) return problem
      if (!(await approved())) return { outcome: 'confirming' }
    }
  }
  return { outcome: 'bound' }
}

/** ApproveIntegrator with four zero caps; null when sent (or uncertain). */
async function sendApproval(
  deps: CompleteLighterDeps,
  privateKey: string,
  p: {
    owner: string
    accountIndex: number
    apiKeyIndex: number
    integrator: number
  },
): Promise<CompletionResult | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      const now = deps.clock.now()
      const tx = approveIntegrator({
        chainId: deps.chainId,
        nonce: await nextNonce(deps.transport, p.accountIndex, p.apiKeyIndex),
        expiredAt: now + TX_TTL_MS,
        accountIndex: p.accountIndex,
        apiKeyIndex: p.apiKeyIndex,
        privateKey,
        integratorAccountIndex: p.integrator,
        maxPerpsTakerFee: 0,
        maxPerpsMakerFee: 0,
        maxSpotTakerFee: 0,
        maxSpotMakerFee: 0,
        approvalExpiry: now + deps.approvalTtlMs,
      })
      await deps.transport.sendTx(tx.txType, tx.txInfo, p.owner)
      return null
    } catch (err) {
      if (isInvalidNonce(err) && attempt < 2) continue
      if (err instanceof UncertainSubmissionError) return null
      const refused = refusal(err)
      if (refused) return refused
      throw err
    }
  }
}

/** A venue refusal as a failed completion; null for other errors. */
function refusal(err: unknown): CompletionResult | null {
  if (!(err instanceof LighterRejectedError)) return null
  if (err.lighterCode === LIGHTER_CODES.l1SignatureFailed) {
    return failed(
      'invalid_signature',
      `Lighter refused the L1 signature: ${err.reason}`,
    )
  }
  if (isInvalidNonce(err)) {
    return failed(
      'invalid_nonce',
      `Lighter refused the nonce the wallet signed (${err.reason}); prepare a new binding`,
    )
  }
  return failed('venue_rejected', err.reason)
}
