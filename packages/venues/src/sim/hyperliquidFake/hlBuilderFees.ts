import { dec } from '@dn/core'
import {
  approvedBuilderFee,
  type HlFakeBuilder,
  type HlFakeState,
} from './hlFakeState.js'

/**
 * Builder codes on the fake: an order naming a builder (`builder: {b, f}`,
 * `f` in tenths of a basis point) is refused, as a whole action, unless
 * the user approved that builder (`approveBuilderFee`, signed by the user)
 * for at least `f`. The latest approval counts, so raising or lowering it
 * takes effect on the next order.
 *
 * The refusal is the top-level `{status:'err', response:'Builder fee has
 * not been approved.'}`: the builder belongs to the action, not to one of
 * its orders. Sources: the words are quoted from the venue in
 * hyperliquid-dex/hyperliquid-python-sdk#176, nautechsystems/nautilus_trader
 * #3989 and #4241, hummingbot/hummingbot#8449 (which also says an
 * unapproved builder is refused even with `f: 0`). [unverified] that an
 * `f` above the approved cap gets the same words (no public report quotes
 * a different answer), and that an approval of `0%` counts as approving
 * `f: 0` (ccxt relies on it: with `builderFee: false` it approves `0%`
 * and then sends `f: 0`).
 *
 * Charging: a fill of an order that named a builder pays `notional × f /
 * 100000` USDC (rounded to the micro-dollar) out of the account, on top of
 * the exchange fee, also when the order fills later while resting; the
 * fill shows it as `builderFee` beside `fee`, which stays the exchange fee
 * (ccxt adds the two). Sources: the builder-codes docs; nktkas `userFills`
 * (`builderFee?` on a fill); ccxt `parseTrade`. On the venue the builder
 * collects it as claimable rewards (`referral.builderRewards`, claimed
 * with `claimRewards`), not as account value, so the fake credits no
 * account and does not serve `referral`.
 *
 * @module
 */

/** The venue's answer to an order whose builder fee was not approved. */
export const HL_BUILDER_FEE_NOT_APPROVED = 'Builder fee has not been approved.'

/** Perp builder fees may not exceed 0.1% (100 tenths of a bp), per the docs. */
const HL_PERP_BUILDER_FEE_CAP = 100

/**
 * Checks an order action's optional `builder` against the user's approvals.
 * @returns the venue's error text, or null when the order may go on
 */
export function checkBuilderFee(
  state: HlFakeState,
  user: string,
  builder: unknown,
): string | null {
  if (builder === undefined || builder === null) return null
  const b = builder as { b?: unknown; f?: unknown }
  if (
    typeof b.b !== 'string' ||
    !/^0x[0-9a-fA-F]{40}$/.test(b.b) ||
    typeof b.f !== 'number' ||
    !Number.isSafeInteger(b.f) ||
    b.f < 0
  ) {
    return 'Failed to deserialize the JSON body into the target type: builder'
  }
  const approved = approvedBuilderFee(state, user, b.b)
  if (approved === undefined || b.f > approved) {
    return HL_BUILDER_FEE_NOT_APPROVED
  }
  // [unverified] wording: the docs give the cap, not the refusal text
  if (b.f > HL_PERP_BUILDER_FEE_CAP) return 'Builder fee too high.'
  return null
}

/**
 * The `builder` of an order action that `checkBuilderFee` let through,
 * with `b` lowercased; undefined when none.
 */
export function readBuilder(builder: unknown): HlFakeBuilder | undefined {
  if (builder === undefined || builder === null) return undefined
  const { b, f } = builder as HlFakeBuilder
  return { b: b.toLowerCase(), f }
}

/**
 * The share of a fill's notional a builder fee of `f` tenths of a basis
 * point is (`f / 100000`: `f = 10` is 0.01%); undefined for `f = 0`, which
 * charges nothing [unverified whether the venue then shows `builderFee:
 * '0.0'` on the fill; the fake shows no `builderFee`].
 */
export function builderFeeRate(builder: HlFakeBuilder | undefined) {
  if (!builder || builder.f === 0) return undefined
  return dec(builder.f).div(100_000)
}

/**
 * An approval's `maxFeeRate` (a percent string, e.g. `0.1%`) in tenths of
 * a basis point (`100`); null when it is not a whole number of them.
 */
export function builderFeeTenths(maxFeeRate: string): number | null {
  const m = /^(\d+)(?:\.(\d+))?%$/.exec(maxFeeRate)
  if (!m) return null
  const frac = (m[2] ?? '').padEnd(3, '0')
  if (frac.length > 3 && /[1-9]/.test(frac.slice(3))) return null
  return Number(m[1]) * 1000 + Number(frac.slice(0, 3))
}
