import type { SimExchange } from '../simExchange.js'

/** An API wallet as `extraAgents` lists it. */
export interface HlFakeAgent {
  readonly name: string
  readonly address: string
  readonly validUntil: number
}

/** What the fake remembers of an order it placed on the engine. */
export interface HlFakeOrder {
  readonly user: string
  readonly coin: string
  readonly side: 'B' | 'A'
  readonly limitPx: string
  readonly origSz: string
  readonly oid: number
  readonly timestamp: number
  /** the posted cloid, lowercased; null when none */
  readonly cloid: string | null
  /** the engine's client order id */
  readonly engineId: string
  /** the posted time in force; null for a trigger order (absent: Gtc) */
  readonly tif?: 'Gtc' | 'Ioc' | 'Alo' | 'FrontendMarket' | null
  /** the posted `r` (absent: false) */
  readonly reduceOnly?: boolean
  /** the posted trigger of a stop / take-profit order */
  readonly trigger?: HlFakeTrigger
  /** the action's builder code, `b` lowercased (absent: none) */
  readonly builder?: HlFakeBuilder
}

/** An order action's `builder`: who is paid, and `f` tenths of a bp. */
export interface HlFakeBuilder {
  readonly b: string
  readonly f: number
}

/** The `t.trigger` of a posted order. */
export interface HlFakeTrigger {
  readonly isMarket: boolean
  readonly triggerPx: string
  readonly tpsl: 'tp' | 'sl'
}

/**
 * Where a trigger order stands outside the engine: waiting for the mark,
 * cancelled while waiting, or triggered (then it is an engine order).
 */
export interface HlTriggerState {
  readonly status: 'waitingForTrigger' | 'canceled' | 'triggered' | 'rejected'
  /** when the status last changed */
  readonly at: number
}

/** The protocol state the engine does not keep: agents, nonces, orders. */
export interface HlFakeState {
  readonly exchange: SimExchange
  readonly isMainnet: boolean
  readonly now: () => number
  /** user (lowercase) → agent name → agent */
  readonly agentsByUser: Map<string, Map<string, HlFakeAgent>>
  /** agent (lowercase) → user (lowercase) */
  readonly ownerOfAgent: Map<string, string>
  /** signer (lowercase) → last nonces, at most NONCE_WINDOW */
  readonly nonces: Map<string, number[]>
  /** `user|builder` (lowercase) → cap in tenths of a bp */
  readonly builderFees: Map<string, number>
  readonly ordersByOid: Map<number, HlFakeOrder>
  /** `user|cloid` → oid */
  readonly oidByCloid: Map<string, number>
  /** user → L1 actions accepted for it (`userRateLimit.nRequestsUsed`) */
  readonly actionsByUser: Map<string, number>
  /** oid of a trigger order → where it stands */
  readonly triggers: Map<number, HlTriggerState>
  /** coin → marks seen by requests, oldest first (for candles) */
  readonly markSamples: Map<string, { t: number; px: string }[]>
  /** user → the time its dead-man switch (`scheduleCancel`) is set for */
  readonly scheduledCancels: Map<string, number>
  /** user → times its switch fired, for the limit of 10 a UTC day */
  readonly cancelTriggers: Map<string, number[]>
  /** referral code → the referrer (lowercase) it belongs to */
  readonly referralCodes: Map<string, string>
  /** user → the code it joined under (`setReferrer`) */
  readonly referrerOf: Map<string, string>
  nextPlain: number
  /** grows with every `/exchange` action and seeded agent: what to save */
  version: number
}

const NONCE_WINDOW = 100
const TWO_DAYS = 2 * 86_400_000
const ONE_DAY = 86_400_000

/** @param referralCodes code → referrer address: the codes that exist */
export function createHlFakeState(
  exchange: SimExchange,
  isMainnet: boolean,
  now: () => number,
  referralCodes: Readonly<Record<string, string>> = {},
): HlFakeState {
  return {
    exchange,
    isMainnet,
    now,
    agentsByUser: new Map(),
    ownerOfAgent: new Map(),
    nonces: new Map(),
    builderFees: new Map(),
    ordersByOid: new Map(),
    oidByCloid: new Map(),
    actionsByUser: new Map(),
    triggers: new Map(),
    markSamples: new Map(),
    scheduledCancels: new Map(),
    cancelTriggers: new Map(),
    referralCodes: new Map(
      Object.entries(referralCodes).map(([c, a]) => [c, a.toLowerCase()]),
    ),
    referrerOf: new Map(),
    nextPlain: 1,
    version: 0,
  }
}

/** True when the engine has an account for `user` (the faucet made it). */
export function accountExists(state: HlFakeState, user: string): boolean {
  try {
    state.exchange.accountIndex(user)
    return true
  } catch {
    return false
  }
}

/**
 * Checks and records a signer's nonce: unused, above the smallest of the
 * last 100, and within (now − 2d, now + 1d).
 * @returns an error text, or null when accepted (then recorded)
 */
export function useNonce(
  state: HlFakeState,
  signer: string,
  nonce: number,
): string | null {
  if (!Number.isSafeInteger(nonce) || nonce <= 0) {
    return `Invalid nonce: ${String(nonce)}`
  }
  const now = state.now()
  if (nonce <= now - TWO_DAYS || nonce >= now + ONE_DAY) {
    return `Invalid nonce: nonce ${nonce} is too far from the current time ${now}`
  }
  const key = signer.toLowerCase()
  const seen = state.nonces.get(key) ?? []
  if (seen.includes(nonce)) return `Invalid nonce: duplicate nonce ${nonce}`
  if (seen.length >= NONCE_WINDOW && nonce <= Math.min(...seen)) {
    return `Invalid nonce: nonce ${nonce} is lower than the smallest of the last ${NONCE_WINDOW}`
  }
  seen.push(nonce)
  if (seen.length > NONCE_WINDOW) {
    seen.splice(seen.indexOf(Math.min(...seen)), 1)
  }
  state.nonces.set(key, seen)
  return null
}

/** The user an L1 signer trades for: its owner if an agent, else itself. */
export function userOfSigner(
  state: HlFakeState,
  signer: string,
): string | null {
  const key = signer.toLowerCase()
  const owner = state.ownerOfAgent.get(key)
  if (owner) {
    const agent = [...(state.agentsByUser.get(owner)?.values() ?? [])].find(
      (a) => a.address === key,
    )
    if (agent && agent.validUntil > state.now()) return owner
    return null
  }
  return accountExists(state, key) ? key : null
}

/** Records an agent; the same name replaces the previous one. */
export function approveAgent(
  state: HlFakeState,
  user: string,
  address: string,
  rawName: string,
): void {
  const u = user.toLowerCase()
  const a = address.toLowerCase()
  const m = / valid_until (\d+)$/.exec(rawName)
  const name = m ? rawName.slice(0, m.index) : rawName
  const validUntil = m ? Number(m[1]) : Number.MAX_SAFE_INTEGER
  const agents = state.agentsByUser.get(u) ?? new Map<string, HlFakeAgent>()
  const old = agents.get(name)
  if (old) state.ownerOfAgent.delete(old.address)
  agents.set(name, { name, address: a, validUntil })
  state.agentsByUser.set(u, agents)
  state.ownerOfAgent.set(a, u)
}

const builderKey = (user: string, builder: string) =>
  `${user.toLowerCase()}|${builder.toLowerCase()}`

/** Records `user`'s approved cap for `builder`, in tenths of a bp. */
export function approveBuilderFee(
  state: HlFakeState,
  user: string,
  builder: string,
  tenths: number,
): void {
  state.builderFees.set(builderKey(user, builder), tenths)
}

/** `user`'s approved cap for `builder` (tenths of a bp), if any. */
export function approvedBuilderFee(
  state: HlFakeState,
  user: string,
  builder: string,
): number | undefined {
  return state.builderFees.get(builderKey(user, builder))
}
