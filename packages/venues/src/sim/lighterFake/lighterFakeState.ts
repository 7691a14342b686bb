import { dec } from '@dn/core'
import type { LighterVenue } from '../../lighter/binding/lighterVenue.js'
import type { SimExchange } from '../simExchange.js'

/**
 * What the Lighter fake keeps beside the engine (which knows accounts and
 * their owners): market ids and decimals, registered API keys and
 * their nonces, the orders it placed (by client order index and by order
 * index), the trigger orders still waiting outside the engine, approved
 * integrators.
 *
 * @module
 */

export interface LighterFakeMarket {
  readonly symbol: string
  readonly marketId: number
  readonly sizeDecimals: number
  readonly priceDecimals: number
  readonly minBase: string
  readonly minQuote: string
  readonly maxLeverage: number
}

/** A stop-loss / take-profit order's trigger. */
export interface LighterFakeTrigger {
  /** the signed integer, as `price` */
  readonly price: number
  /** Unix ms it was handed to the engine; null while it waits */
  readonly firedAt: number | null
}

export interface LighterFakeOrder {
  readonly accountIndex: number
  readonly owner: string
  readonly market: LighterFakeMarket
  readonly clientOrderIndex: number
  readonly orderIndex: number
  readonly isAsk: boolean
  /** integers as signed */
  readonly price: number
  readonly baseAmount: number
  readonly timeInForce: number
  readonly reduceOnly: boolean
  readonly orderExpiry: number
  /** Unix ms */
  readonly timestamp: number
  /** the engine's client order id */
  readonly engineId: string
  /** set when the sequencer refused the order: the status it ended in */
  readonly refusal: string | null
  /** the CreateOrder tx's hash, nonce, type (absent in older snapshots) */
  readonly txHash?: string | undefined
  readonly nonce?: number | undefined
  readonly type?: number | undefined
  /** set on stop-loss / take-profit orders (absent in older snapshots) */
  readonly trigger?: LighterFakeTrigger | undefined
}

export interface LighterFakeIntegrator {
  readonly account_index: number
  readonly max_perps_taker_fee: number
  readonly max_perps_maker_fee: number
  readonly max_spot_taker_fee: number
  readonly max_spot_maker_fee: number
  readonly approval_expiry: number
}

/** An accepted tx, as the `tx` read shows it (not saved in snapshots). */
export interface LighterFakeTxRecord {
  readonly hash: string
  readonly type: number
  /** the `tx_info` as posted */
  readonly info: string
  readonly accountIndex: number
  readonly apiKeyIndex: number
  readonly nonce: number
  readonly expiredAt: number
  /** Unix ms it was accepted */
  readonly time: number
  /** the order it created (CreateOrder) */
  readonly orderIndex: number | null
  /** 1, 2, … in the order the fake accepted them */
  readonly sequence: number
}

export interface LighterFakeState {
  readonly exchange: SimExchange
  readonly venue: LighterVenue
  readonly chainId: number
  readonly now: () => number
  readonly markets: readonly LighterFakeMarket[]
  /** `account:apiKey` → public key (80 lowercase hex, no 0x) */
  readonly keys: Map<string, string>
  /** `account:apiKey` → next nonce */
  readonly nonces: Map<string, number>
  /** `account:clientOrderIndex` → order */
  readonly orders: Map<string, LighterFakeOrder>
  readonly ordersByIndex: Map<number, LighterFakeOrder>
  /** order indexes of the trigger orders still waiting for the mark */
  readonly waitingTriggers: Set<number>
  /** account → integrator account → approval */
  readonly integrators: Map<number, Map<number, LighterFakeIntegrator>>
  /** accepted txs by hash, the newest `LIGHTER_FAKE_TX_LOG` (`tx` read) */
  readonly txs: Map<string, LighterFakeTxRecord>
  nextOrderIndex: number
  nextPlain: number
  /** accepted txs so far (the last one's `sequence`) */
  txCount: number
  /** grows with every tx and seeded key: what to save */
  version: number
}

/** Lighter's mainnet ids for the symbols it lists; others follow. */
const KNOWN_IDS: Readonly<Record<string, number>> = { ETH: 0, BTC: 1, SOL: 2 }

/** Exchange order indexes start above every client order index. */
export const FIRST_ORDER_INDEX = 2 ** 48

function decimalsOf(step: string): number {
  const d = dec(step)
  const places = d.decimalPlaces()
  if (!d.eq(dec(10).pow(-places))) {
    throw new RangeError(`Lighter steps are powers of ten, not ${step}`)
  }
  return places
}

export function createLighterFakeState(
  exchange: SimExchange,
  venue: LighterVenue,
  chainId: number,
  now: () => number,
): LighterFakeState {
  const listed = [...exchange.listed()].sort((a, b) =>
    a.symbol.localeCompare(b.symbol),
  )
  const used = new Set<number>()
  const ids = new Map<string, number>()
  for (const r of listed) {
    const id = KNOWN_IDS[r.symbol]
    if (id !== undefined) {
      ids.set(r.symbol, id)
      used.add(id)
    }
  }
  let free = 0
  for (const r of listed) {
    if (ids.has(r.symbol)) continue
    while (used.has(free)) free++
    ids.set(r.symbol, free)
    used.add(free)
  }
  const markets = listed.map((r) => ({
    symbol: r.symbol,
    marketId: ids.get(r.symbol) ?? 0,
    sizeDecimals: decimalsOf(r.sizeStep),
    priceDecimals: decimalsOf(r.tickSize),
    minBase: r.minBase,
    minQuote: r.minNotionalUsd,
    maxLeverage: r.maxLeverage,
  }))
  return {
    exchange,
    venue,
    chainId,
    now,
    markets,
    keys: new Map(),
    nonces: new Map(),
    orders: new Map(),
    ordersByIndex: new Map(),
    waitingTriggers: new Set(),
    integrators: new Map(),
    txs: new Map(),
    nextOrderIndex: FIRST_ORDER_INDEX,
    nextPlain: 1,
    txCount: 0,
    version: 0,
  }
}

/** The engine account index of `owner`, or null when it has none. */
export function accountIndexOf(
  state: LighterFakeState,
  owner: string,
): number | null {
  try {
    return state.exchange.accountIndex(owner.toLowerCase())
  } catch {
    return null
  }
}

export function marketById(
  state: LighterFakeState,
  id: number,
): LighterFakeMarket | undefined {
  return state.markets.find((m) => m.marketId === id)
}

export const keyId = (account: number, apiKey: number) => `${account}:${apiKey}`

/** The engine's client order id of a Lighter order (see stats()). */
export function engineOrderId(account: number, clientOrderIndex: number) {
  return `lighter:${account}:${clientOrderIndex}`
}

/** A fixed-decimal string, the way Lighter prints amounts. */
export function fixed(value: string | number, decimals: number): string {
  return dec(value).toFixed(decimals)
}
