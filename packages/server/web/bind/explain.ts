import { type SignRequest, VENUE_NAMES } from './types.js'

/** What one signature does, in plain words, before the wallet opens. */
export interface Explanation {
  readonly title: string
  /** what the signature authorizes */
  readonly allows: string
  /** what it can never do */
  readonly cannot: string
}

const NO_FUNDS =
  'It cannot withdraw or transfer your funds, and it does not spend anything.'

const field = (r: SignRequest, name: string): string => {
  if (r.method !== 'eth_signTypedData_v4') return ''
  const value = r.payload.message[name]
  return value === undefined ? '' : String(value)
}

/** `0.1%` from Hyperliquid's percent string or Aster's decimal fraction. */
const percent = (rate: string): string =>
  rate.endsWith('%') ? rate : `${Number(rate) * 100}%`

/** Lighter's registration message names its key slot and account. */
function lighterNumbers(message: string): { account: string; slot: string } {
  const hex = (label: string) => {
    const m = new RegExp(`${label}:\\s*(0x[0-9a-fA-F]+)`).exec(message)
    return m?.[1] ? String(Number.parseInt(m[1], 16)) : '?'
  }
  return { account: hex('account index'), slot: hex('api key index') }
}

/** The plain explanation of one venue sign request. */
export function explainSignRequest(r: SignRequest): Explanation {
  const venue = VENUE_NAMES[r.venue]
  if (r.requestId === 'hl:approveAgent') {
    return {
      title: `${venue}: approve a trading agent`,
      allows: `Lets this service place and cancel perpetual orders for your ${venue} account with a key it made for itself (agent ${field(r, 'agentAddress')}).`,
      cannot: `An agent can only trade. ${NO_FUNDS}`,
    }
  }
  if (r.requestId === 'hl:approveBuilderFee') {
    return {
      title: `${venue}: cap the builder fee`,
      allows: `Allows a builder fee of at most ${field(r, 'maxFeeRate')} on orders this service places for you, paid to ${field(r, 'builder')}. This is an upper limit, not a charge.`,
      cannot: NO_FUNDS,
    }
  }
  if (r.requestId === 'aster:approveAgent') {
    const fee = field(r, 'MaxFeeRate')
    return {
      title: `${venue}: approve a trading agent`,
      allows: `Lets this service trade perpetuals (not spot) for your ${venue} account with a key it made for itself (agent ${field(r, 'AgentAddress')}).${fee ? ` It also caps the builder fee on those orders at ${percent(fee)}.` : ''}`,
      cannot: `The approval says CanWithdraw: false. ${NO_FUNDS}`,
    }
  }
  if (r.action === 'changePubKey' && r.method === 'personal_sign') {
    const { account, slot } = lighterNumbers(r.payload.message)
    return {
      title: `${venue}: register an API key`,
      allows: `Registers a new API key (slot ${slot}) on your ${venue} account #${account}, which this service uses to place and cancel orders.`,
      cannot: `Lighter API keys can trade but cannot withdraw. ${NO_FUNDS}`,
    }
  }
  if (r.action === 'approveIntegrator') {
    const index = /integratorIndex=(\d+)/.exec(
      r.method === 'personal_sign' ? r.payload.message : '',
    )?.[1]
    return {
      title: `${venue}: integrator consent`,
      allows: `Consents to orders being routed through integrator #${index ?? '?'} with zero extra fees (all maker and taker fee caps 0).`,
      cannot: NO_FUNDS,
    }
  }
  return {
    title: `${venue}: ${r.action}`,
    allows: `A ${venue} authorization this service needs to trade for you.`,
    cannot: NO_FUNDS,
  }
}
