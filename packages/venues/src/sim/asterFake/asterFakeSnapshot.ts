import type {
  AsterFakeAgent,
  AsterFakeBuilder,
  AsterFakeOrder,
  AsterFakeSetting,
  AsterFakeState,
  AsterFakeTrigger,
} from './asterFakeState.js'

type Entries<K, V> = readonly (readonly [K, V])[]

/**
 * What the Aster fake keeps beside the engine, as JSON: approved agents,
 * builder fee approvals, each user's last nonces, position modes,
 * leverage and margin types, the orders it placed and its conditional
 * orders' states. Not kept: listenKeys (a restarted service opens new
 * ones), rate-limit counters and bans, stream connections, the marks and
 * funding rates it saw (klines, 24 h tickers and funding history start
 * over).
 */
export interface AsterFakeSnapshot {
  readonly agents: Entries<string, readonly AsterFakeAgent[]>
  readonly builders: Entries<string, string>
  readonly nonces: Entries<string, readonly number[]>
  readonly hedge: readonly string[]
  readonly orders: readonly AsterFakeOrder[]
  /** `user|clientOrderId` → orderId */
  readonly byClientOrderId: Entries<string, number>
  readonly nextOrderId: number
  /** absent in snapshots saved before builders were listed */
  readonly builderInfo?: Entries<string, AsterFakeBuilder> | undefined
  /** leverage and margin types; absent in older snapshots */
  readonly settings?: Entries<string, AsterFakeSetting> | undefined
  /** conditional orders' states; absent in older snapshots */
  readonly triggers?: Entries<number, AsterFakeTrigger> | undefined
  /** countdownCancelAll times; absent in older snapshots */
  readonly countdowns?: Entries<string, number> | undefined
}

export function asterFakeToSnapshot(state: AsterFakeState): AsterFakeSnapshot {
  return {
    agents: [...state.agents].map(([u, m]) => [u, [...m.values()]]),
    builders: [...state.builders],
    nonces: [...state.nonces].map(([k, v]) => [k, [...v]]),
    hedge: [...state.hedge],
    orders: [...state.byOrderId.values()],
    byClientOrderId: [...state.orders].map(([k, o]) => [k, o.orderId]),
    nextOrderId: state.nextOrderId,
    builderInfo: [...state.builderInfo],
    settings: [...state.settings],
    triggers: [...state.triggers].map(([k, t]) => [k, { ...t }]),
    countdowns: [...state.countdowns],
  }
}

/** Puts a snapshot into a fresh fake state. */
export function restoreAsterFake(
  state: AsterFakeState,
  s: AsterFakeSnapshot,
): void {
  for (const [user, agents] of s.agents) {
    state.agents.set(
      user,
      new Map(agents.map((a) => [a.agentAddress.toLowerCase(), a])),
    )
  }
  for (const [k, v] of s.builders) state.builders.set(k, v)
  for (const [k, v] of s.nonces) state.nonces.set(k, [...v])
  for (const u of s.hedge) state.hedge.add(u)
  for (const o of s.orders) state.byOrderId.set(o.orderId, o)
  for (const [k, id] of s.byClientOrderId) {
    const order = state.byOrderId.get(id)
    if (order) state.orders.set(k, order)
  }
  state.nextOrderId = s.nextOrderId
  for (const [k, b] of s.builderInfo ?? []) state.builderInfo.set(k, b)
  for (const [k, v] of s.settings ?? []) state.settings.set(k, v)
  for (const [k, t] of s.triggers ?? []) state.triggers.set(k, { ...t })
  for (const [k, at] of s.countdowns ?? []) state.countdowns.set(k, at)
}
