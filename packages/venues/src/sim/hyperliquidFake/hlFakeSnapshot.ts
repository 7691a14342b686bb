import type {
  HlFakeAgent,
  HlFakeOrder,
  HlFakeState,
  HlTriggerState,
} from './hlFakeState.js'

type Entries<K, V> = readonly (readonly [K, V])[]

/**
 * What the Hyperliquid fake keeps beside the engine, as JSON: approved
 * agents, builder fee approvals, each signer's last nonces, the orders it
 * placed (by oid and by cloid, with the builder each named), trigger
 * orders, the dead-man switches with their triggers, and the referral
 * code each user joined under. The builder fee each engine order charges
 * and each fill paid are in the engine's snapshot. Not kept: sampled marks (candles), action counts,
 * rate-limit counters, stream subscriptions.
 */
export interface HlFakeSnapshot {
  readonly agentsByUser: Entries<string, readonly HlFakeAgent[]>
  readonly ownerOfAgent: Entries<string, string>
  readonly nonces: Entries<string, readonly number[]>
  readonly builderFees: Entries<string, number>
  readonly orders: readonly HlFakeOrder[]
  readonly oidByCloid: Entries<string, number>
  readonly scheduledCancels: Entries<string, number>
  readonly cancelTriggers: Entries<string, readonly number[]>
  readonly nextPlain: number
  /** trigger orders by oid (absent in snapshots older than triggers) */
  readonly triggers?: Entries<number, HlTriggerState>
  /** user → referral code joined under (absent in older snapshots) */
  readonly referrerOf?: Entries<string, string>
}

export function hlFakeToSnapshot(state: HlFakeState): HlFakeSnapshot {
  return {
    agentsByUser: [...state.agentsByUser].map(([u, m]) => [u, [...m.values()]]),
    ownerOfAgent: [...state.ownerOfAgent],
    nonces: [...state.nonces].map(([k, v]) => [k, [...v]]),
    builderFees: [...state.builderFees],
    orders: [...state.ordersByOid.values()],
    oidByCloid: [...state.oidByCloid],
    scheduledCancels: [...state.scheduledCancels],
    cancelTriggers: [...state.cancelTriggers].map(([k, v]) => [k, [...v]]),
    nextPlain: state.nextPlain,
    triggers: [...state.triggers].map(([k, v]) => [k, { ...v }]),
    referrerOf: [...state.referrerOf],
  }
}

/** Puts a snapshot into a fresh fake state. */
export function restoreHlFake(state: HlFakeState, s: HlFakeSnapshot): void {
  for (const [user, agents] of s.agentsByUser) {
    state.agentsByUser.set(user, new Map(agents.map((a) => [a.name, a])))
  }
  for (const [k, v] of s.ownerOfAgent) state.ownerOfAgent.set(k, v)
  for (const [k, v] of s.nonces) state.nonces.set(k, [...v])
  for (const [k, v] of s.builderFees) state.builderFees.set(k, v)
  for (const o of s.orders) state.ordersByOid.set(o.oid, o)
  for (const [k, v] of s.oidByCloid) state.oidByCloid.set(k, v)
  for (const [k, v] of s.scheduledCancels) state.scheduledCancels.set(k, v)
  for (const [k, v] of s.cancelTriggers) state.cancelTriggers.set(k, [...v])
  state.nextPlain = s.nextPlain
  for (const [k, v] of s.triggers ?? []) state.triggers.set(k, { ...v })
  for (const [k, v] of s.referrerOf ?? []) state.referrerOf.set(k, v)
}
