import { txInteger } from './txInteger.js'

/**
 * Optional L2 tx attributes (lighter-go `types/txtypes/tx_attributes.go`).
 * On the wire they are a map from attribute type to value; a value equal to
 * the type's "nil" value counts as absent in the hash.
 *
 * @module
 */

/** Named attributes as lighter-go's `TransactOpts.TxAttributes` has them. */
export interface LighterTxAttributes {
  /** Type 1: integrator account (nil 0). */
  readonly integratorAccountIndex?: number
  /** Type 2: integrator taker fee, 0..1 000 000 = 100% (nil 0). */
  readonly integratorTakerFee?: number
  /** Type 3: integrator maker fee, 0..1 000 000 (nil 0). */
  readonly integratorMakerFee?: number
  /** Type 4: 1 = skip the nonce check (nil 0). */
  readonly skipNonce?: 1
  /** Type 5: market of a scoped cancel-all (nil 255). */
  readonly cancelAllMarketIndex?: number
  /** Type 6: self-trade behaviour 0..3 (nil 0 = expire maker). */
  readonly selfTradeBehaviorMode?: number
  /** Type 7: self-trade equality 0..1 (nil 0 = account index). */
  readonly selfTradeEqualityMode?: number
}

/** Validated attributes as `type -> value`, ascending by type. */
export type TxAttributeMap = ReadonlyMap<number, number>

const MAX_ACCOUNT_INDEX = 2 ** 48 - 2
const FEE_TICK = 1_000_000
const NB_ATTRIBUTES_PER_TX = 4

// type, name, min, max, nil value (lighter-go AttributeTypeToConfig)
const CONFIG = [
  [1, 'integratorAccountIndex', 0, MAX_ACCOUNT_INDEX, 0],
  [2, 'integratorTakerFee', 0, FEE_TICK, 0],
  [3, 'integratorMakerFee', 0, FEE_TICK, 0],
  [4, 'skipNonce', 1, 1, 0],
  [5, 'cancelAllMarketIndex', 0, 255, 255],
  [6, 'selfTradeBehaviorMode', 0, 3, 0],
  [7, 'selfTradeEqualityMode', 0, 1, 0],
] as const

/** The "nil" value of an attribute type (absent in the hash). */
export function attributeNilValue(type: number): number {
  return CONFIG.find((c) => c[0] === type)?.[4] ?? 0
}

/**
 * Validates named attributes the way lighter-go's `L2TxAttributes.Validate`
 * does and returns the wire map, or `null` when none is given (Go then
 * sends `"L2TxAttributes": null`).
 *
 * @throws {RangeError} on an out-of-range value, more than four attributes,
 *   fees without an integrator, self-trade options with fees, or the
 *   reduce behaviour with master-account equality.
 * @example
 * txAttributes({ skipNonce: 1 }) // Map { 4 => 1 }
 */
export function txAttributes(
  attributes: LighterTxAttributes | undefined,
): TxAttributeMap | null {
  if (attributes === undefined) return null
  const map = new Map<number, number>()
  for (const [type, name, min, max] of CONFIG) {
    const value = attributes[name]
    if (value === undefined) continue
    map.set(type, txInteger(`attributes.${name}`, value, min, max))
  }
  if (map.size === 0) return null
  if (map.size > NB_ATTRIBUTES_PER_TX) {
    throw new RangeError(`at most ${NB_ATTRIBUTES_PER_TX} attributes per tx`)
  }
  const set = (type: number) =>
    (map.get(type) ?? attributeNilValue(type)) !== attributeNilValue(type)
  const hasFees = set(2) || set(3)
  if (hasFees && !set(1)) {
    throw new RangeError('integrator fees need integratorAccountIndex')
  }
  if (hasFees && (set(6) || set(7))) {
    throw new RangeError('self-trade options are not allowed with fees')
  }
  if (map.get(6) === 3 && map.get(7) === 1) {
    throw new RangeError(
      'self-trade reduce mode is not allowed with master-account equality',
    )
  }
  return map
}

/**
 * The `L2TxAttributes` value of `tx_info`: `null`, or an object whose keys
 * are the types as strings (`{"4":1}`), which is how Go marshals the map.
 */
export function txAttributesJson(
  map: TxAttributeMap | null,
): Record<string, number> | null {
  if (map === null) return null
  return Object.fromEntries([...map].map(([k, v]) => [String(k), v]))
}
