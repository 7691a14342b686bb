import type { SimExchange } from '../simExchange.js'
import { AsterFakeError } from './asterFakeError.js'

/** An API wallet as `GET /fapi/v3/agent` lists it. */
export interface AsterFakeAgent {
  readonly agentAddress: string
  readonly agentName: string
  readonly ipWhitelist: string
  /** expiry, Unix ms */
  readonly expired: number
  readonly canSpotTrade: boolean
  readonly canPerpTrade: boolean
  readonly canWithdraw: boolean
}

/** The order types the fake accepts (no TRAILING_STOP_MARKET). */
export type AsterFakeOrderType =
  | 'LIMIT'
  | 'MARKET'
  | 'STOP'
  | 'STOP_MARKET'
  | 'TAKE_PROFIT'
  | 'TAKE_PROFIT_MARKET'

/**
 * A conditional order's life before the engine sees it: NEW while it
 * waits for the mark, TRIGGERED once placed on the engine (which then
 * tells its state), CANCELED by the user, EXPIRED when the engine
 * refused it at the trigger.
 */
export interface AsterFakeTrigger {
  status: 'NEW' | 'TRIGGERED' | 'CANCELED' | 'EXPIRED'
  updateTime: number
}

/** An approved builder as `GET /fapi/v3/builder` lists it. */
export interface AsterFakeBuilder {
  /** as the user posted it (clients compare it verbatim) */
  readonly builderAddress: string
  readonly maxFeeRate: string
  readonly builderName: string
}

/** One minute of the marks the fake saw (prices as decimal strings). */
export interface AsterFakeBar {
  /** the minute's start, Unix ms */
  readonly t: number
  readonly o: string
  h: string
  l: string
  c: string
}

/** A user's leverage and margin type on one symbol. */
export interface AsterFakeSetting {
  readonly leverage: number
  readonly marginType: 'cross' | 'isolated'
  /** false until the engine has it (it needs a funded account first) */
  readonly applied: boolean
}

/** What the fake remembers of an order it placed on the engine. */
export interface AsterFakeOrder {
  readonly user: string
  readonly symbol: string
  readonly orderId: number
  /** the posted `newClientOrderId`, also the engine's client order id */
  readonly clientOrderId: string
  readonly side: 'BUY' | 'SELL'
  readonly type: AsterFakeOrderType
  readonly timeInForce: string
  readonly price: string
  readonly reduceOnly: boolean
  /** a conditional order's trigger price; absent (or '0') otherwise */
  readonly stopPrice?: string | undefined
  /** a conditional order's trigger: MARK_PRICE or CONTRACT_PRICE */
  readonly workingType?: string | undefined
  /** the posted quantity (a conditional order's, before the engine has it) */
  readonly quantity?: string | undefined
  readonly time: number
  readonly builder: string | null
  readonly feeRate: string | null
  /**
   * the engine order now standing for it, once Modify Order replaced the
   * first one (`asterFakeEngineLegs.ts`); absent: `clientOrderId`
   */
  readonly engineId?: string | undefined
  /** what the engine orders it replaced filled: base, and quote for the average */
  readonly priorFilled?:
    | { readonly base: string; readonly quote: string }
    | undefined
  /** how many times Modify Order changed it (the venue allows 10000) */
  readonly modifies?: number | undefined
}

/** The protocol state the engine does not keep. */
export interface AsterFakeState {
  readonly exchange: SimExchange
  readonly testnet: boolean
  /** ms */
  readonly now: () => number
  /** user (lowercase) → agent (lowercase) → agent */
  readonly agents: Map<string, Map<string, AsterFakeAgent>>
  /** `user|builder` (lowercase) → approved max fee rate */
  readonly builders: Map<string, string>
  /** `user|builder` (lowercase) → the approval as listed */
  readonly builderInfo: Map<string, AsterFakeBuilder>
  /** `user|symbol` → leverage and margin type the user set */
  readonly settings: Map<string, AsterFakeSetting>
  /** orderId → a conditional order's state before and at its trigger */
  readonly triggers: Map<number, AsterFakeTrigger>
  /**
   * `user|symbol` → when its countdownCancelAll fires (the engine cancels
   * its resting orders then; the fake cancels the waiting conditional ones)
   */
  readonly countdowns: Map<string, number>
  /** symbol → minute bars of the marks the fake saw, oldest first */
  readonly tape: Map<string, AsterFakeBar[]>
  /** symbol → fundingTime → the rate the fake last saw for it */
  readonly fundingSeen: Map<string, Map<number, string>>
  /** user (lowercase) → the last nonces, at most NONCE_MEMORY */
  readonly nonces: Map<string, number[]>
  /** users in Hedge Mode */
  readonly hedge: Set<string>
  /** `user|clientOrderId` → order */
  readonly orders: Map<string, AsterFakeOrder>
  readonly byOrderId: Map<number, AsterFakeOrder>
  nextOrderId: number
  /** grows with every signed request and seeded agent: what to save */
  version: number
}

/** Aster keeps the most recent 100 nonces per user. */
const NONCE_MEMORY = 100
/** Nonces must be within 10 s of server time, in microseconds. */
const NONCE_WINDOW_US = 10_000_000

export function createAsterFakeState(
  exchange: SimExchange,
  testnet: boolean,
  now: () => number,
): AsterFakeState {
  return {
    exchange,
    testnet,
    now,
    agents: new Map(),
    builders: new Map(),
    builderInfo: new Map(),
    settings: new Map(),
    triggers: new Map(),
    countdowns: new Map(),
    tape: new Map(),
    fundingSeen: new Map(),
    nonces: new Map(),
    hedge: new Set(),
    orders: new Map(),
    byOrderId: new Map(),
    nextOrderId: 1,
    version: 0,
  }
}

/** Rejection of a used, stale or future nonce, as the noop demo shows it. */
const nonceExpired = () => new AsterFakeError(-4225, 'Nonce Expired')

/**
 * Checks and records a user's nonce (futures v3 doc "V3 Nonce Mechanism"):
 * not used before, within 10 s of the fake's clock, and not below the
 * smallest of the last 100 once that list is full.
 * @throws AsterFakeError -4225 when refused
 */
export function useNonce(state: AsterFakeState, user: string, raw: string) {
  if (!/^\d{1,16}$/.test(raw)) throw nonceExpired()
  const nonce = Number(raw)
  const nowUs = state.now() * 1000
  if (Math.abs(nonce - nowUs) > NONCE_WINDOW_US) throw nonceExpired()
  const key = user.toLowerCase()
  const seen = state.nonces.get(key) ?? []
  if (seen.includes(nonce)) throw nonceExpired()
  if (seen.length >= NONCE_MEMORY && nonce < Math.min(...seen)) {
    throw nonceExpired()
  }
  seen.push(nonce)
  if (seen.length > NONCE_MEMORY)
    seen.splice(seen.indexOf(Math.min(...seen)), 1)
  state.nonces.set(key, seen)
}

/** The agent `signer` of `user`, when approved and not expired. */
export function liveAgent(
  state: AsterFakeState,
  user: string,
  signer: string,
): AsterFakeAgent | undefined {
  const a = state.agents.get(user.toLowerCase())?.get(signer.toLowerCase())
  return a && a.expired > state.now() ? a : undefined
}

/** True when the engine has an account for `user` (the faucet made it). */
export function hasAccount(state: AsterFakeState, user: string): boolean {
  try {
    state.exchange.accountIndex(user)
    return true
  } catch {
    return false
  }
}
