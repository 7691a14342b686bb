import type { BindingConfig, PreparedVenue } from '@dn/core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { asterApproveAgentRequest } from './approveAgentRequest.js'

/**
 * A prepared Aster binding: a fresh agent key, and the owner's
 * `aster:approveAgent` request for it (builder fields embedded with fee
 * approval), with what completing checks in the context.
 */
export function prepareAsterAgent(p: {
  readonly owner: string
  readonly config: BindingConfig
  /** microseconds, unique per owner */
  readonly nonce: number
  /** agent expiry, Unix ms */
  readonly expired: number
  readonly chain: 'Mainnet' | 'Testnet'
}): PreparedVenue {
  const secret = generatePrivateKey()
  const agent = privateKeyToAccount(secret).address
  const agentName = `dn-${agent.slice(2, 10).toLowerCase()}`
  const request = asterApproveAgentRequest({
    owner: p.owner,
    agentAddress: agent,
    agentName,
    nonce: p.nonce,
    expired: p.expired,
    feeApproval: p.config.feeApproval,
    builder: p.config.builderAddress,
    builderName: p.config.builderName,
    chain: p.chain,
  })
  return {
    requests: [request],
    credentialRef: agent,
    secret,
    context: {
      agentName,
      nonce: String(p.nonce),
      expired: String(p.expired),
      feeApproval: String(p.config.feeApproval),
    },
  }
}
