/** Time in force: `Alo` = post-only, `Ioc` = taker, `Gtc` = resting. */
export type HlTif = 'Gtc' | 'Ioc' | 'Alo'

/** One order in our terms; prices/sizes are already HL wire strings. */
export interface HlOrderInput {
  /** asset id (perp index, 10000+ spot, 100000+ builder dex) */
  readonly asset: number
  readonly isBuy: boolean
  /** wire price, e.g. from `formatHlPrice` */
  readonly price: string
  /** wire size, e.g. from `formatHlSize` */
  readonly size: string
  readonly reduceOnly: boolean
  readonly tif: HlTif
  /** client order id, `0x` + 32 hex */
  readonly cloid?: string | undefined
}

/** An order on the wire; key order is hashed. */
export interface HlOrderWire {
  a: number
  b: boolean
  p: string
  s: string
  r: boolean
  t: { limit: { tif: HlTif } }
  c?: string
}

export interface HlOrderAction {
  type: 'order'
  orders: HlOrderWire[]
  grouping: 'na'
  builder?: { b: string; f: number }
}

export interface HlBuilderFee {
  /** builder address; lowercased on the wire */
  readonly address: string
  /** fee in tenths of a basis point (10 = 1 bp); at most 1000 */
  readonly feeTenthsBp: number
}

const WIRE_DECIMAL = /^(0|[1-9]\d*)(\.\d*[1-9])?$/
const CLOID = /^0x[0-9a-fA-F]{32}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/**
 * The `order` action, keys in Hyperliquid's order
 * (`a, b, p, s, r, t, c?`; then `grouping: 'na'`, `builder?: {b, f}`),
 * as python `order_request_to_order_wire` / `order_wires_to_order_action`.
 * @param orders the orders of the batch
 * @param builder optional builder fee
 * @returns the action to hash and post
 * @throws RangeError on a bad asset, wire decimal, cloid or builder
 * @example orderAction([{ asset: 0, isBuy: true, price: '100', size: '0.1', reduceOnly: false, tif: 'Ioc' }])
 */
export function orderAction(
  orders: readonly HlOrderInput[],
  builder?: HlBuilderFee,
): HlOrderAction {
  if (orders.length === 0) throw new RangeError('orders must not be empty')
  const action: HlOrderAction = {
    type: 'order',
    orders: orders.map(orderWire),
    grouping: 'na',
  }
  if (builder) {
    if (!ADDRESS.test(builder.address)) {
      throw new RangeError(`builder is not an address: ${builder.address}`)
    }
    const f = builder.feeTenthsBp
    if (!Number.isSafeInteger(f) || f < 0 || f > 1000) {
      throw new RangeError(`builder fee must be an integer 0..1000: ${f}`)
    }
    action.builder = { b: builder.address.toLowerCase(), f }
  }
  return action
}

function orderWire(o: HlOrderInput): HlOrderWire {
  const wire: HlOrderWire = {
    a: asset(o.asset),
    b: o.isBuy,
    p: positiveWire('price', o.price),
    s: positiveWire('size', o.size),
    r: o.reduceOnly,
    t: { limit: { tif: tif(o.tif) } },
  }
  if (o.cloid !== undefined) wire.c = cloid(o.cloid)
  return wire
}

/**
 * The `cancelByCloid` action: `{type, cancels: [{asset, cloid}]}` (long key
 * names, unlike `cancel`).
 * @param cancels asset id and client order id of each order
 * @returns the action to hash and post
 * @throws RangeError on a bad asset or cloid
 * @example cancelByCloidAction([{ asset: 0, cloid: '0x000…1' }])
 */
export function cancelByCloidAction(
  cancels: readonly { readonly asset: number; readonly cloid: string }[],
): {
  type: 'cancelByCloid'
  cancels: { asset: number; cloid: string }[]
} {
  if (cancels.length === 0) throw new RangeError('cancels must not be empty')
  return {
    type: 'cancelByCloid',
    cancels: cancels.map((c) => ({
      asset: asset(c.asset),
      cloid: cloid(c.cloid),
    })),
  }
}

/**
 * The `scheduleCancel` (dead-man switch) action; without `time` it clears
 * the schedule.
 * @param time ms timestamp when all open orders are cancelled
 * @returns the action to hash and post
 * @throws RangeError on a bad time
 * @example scheduleCancelAction(Date.now() + 60_000)
 */
export function scheduleCancelAction(time?: number): {
  type: 'scheduleCancel'
  time?: number
} {
  if (time === undefined) return { type: 'scheduleCancel' }
  if (!Number.isSafeInteger(time) || time < 0) {
    throw new RangeError(`time must be a non-negative safe integer: ${time}`)
  }
  return { type: 'scheduleCancel', time }
}

function asset(a: number): number {
  if (!Number.isSafeInteger(a) || a < 0) {
    throw new RangeError(`asset must be a non-negative integer: ${a}`)
  }
  return a
}

function tif(t: HlTif): HlTif {
  if (t !== 'Gtc' && t !== 'Ioc' && t !== 'Alo') {
    throw new RangeError(`tif must be Gtc, Ioc or Alo: ${String(t)}`)
  }
  return t
}

function cloid(c: string): string {
  if (!CLOID.test(c)) throw new RangeError(`cloid must be 0x + 32 hex: ${c}`)
  return c.toLowerCase()
}

function positiveWire(name: string, value: string): string {
  if (!WIRE_DECIMAL.test(value) || /^0(\.0*)?$/.test(value)) {
    throw new RangeError(
      `${name} must be a positive wire decimal (no exponent, no trailing zeros): ${value}`,
    )
  }
  return value
}
