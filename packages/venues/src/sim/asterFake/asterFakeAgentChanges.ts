import { isAddress } from 'viem'
import { param } from './asterFakeAuth.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import type { AsterFakeAgent, AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const ok = { code: 200, msg: 'success' }

/** The approved agent a request names. @throws -1102, -1130 */
function agentOf(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
): AsterFakeAgent {
  const address = param(pairs, 'agentAddress')
  if (!address) throw mandatory('agentAddress')
  if (!isAddress(address, { strict: false })) {
    throw invalidParam('agentAddress')
  }
  const agent = state.agents.get(user)?.get(address.toLowerCase())
  if (!agent) {
    throw new AsterFakeError(
      -1130,
      "Data sent for parameter 'agentAddress' is not valid.",
    )
  }
  return agent
}

const flag = (pairs: Pairs, name: string, was: boolean) => {
  const v = param(pairs, name)
  return v === undefined ? was : v.toLowerCase() === 'true'
}

/**
 * `POST /fapi/v3/updateAgent` (main wallet, UpdateAgent): new
 * permissions and IP whitelist of an approved agent (asterCode endpoint
 * table: agentAddress, ipWhitelist, canSpotTrade, canPerpTrade,
 * canWithdraw).
 */
export function updateAgent(state: AsterFakeState, user: string, pairs: Pairs) {
  const agent = agentOf(state, user, pairs)
  state.agents.get(user)?.set(agent.agentAddress.toLowerCase(), {
    ...agent,
    ipWhitelist: param(pairs, 'ipWhitelist') ?? agent.ipWhitelist,
    canSpotTrade: flag(pairs, 'canSpotTrade', agent.canSpotTrade),
    canPerpTrade: flag(pairs, 'canPerpTrade', agent.canPerpTrade),
    canWithdraw: flag(pairs, 'canWithdraw', agent.canWithdraw),
  })
  return ok
}

/** `DELETE /fapi/v3/agent` (main wallet, DelAgent): revokes an agent. */
export function deleteAgent(state: AsterFakeState, user: string, pairs: Pairs) {
  const agent = agentOf(state, user, pairs)
  state.agents.get(user)?.delete(agent.agentAddress.toLowerCase())
  return ok
}
