import * as v from 'valibot'
import {
  DateTimeSchema,
  DecimalStringSchema,
  MarketSchema,
  VenueSchema,
} from './common.js'

/** `GET /v1/positions` and `/v1/balances`: one venue, or every granted one. */
export const AccountsQuery = v.strictObject({
  venue: v.optional(VenueSchema),
})
export type AccountsQuery = v.InferOutput<typeof AccountsQuery>

/**
 * Which bound account a row is, and how old what it shows is: `readAt`
 * when the worker's venue read was sent, `ageMs` how long before this
 * answer; both null while the account has not been read yet.
 */
const AccountRead = {
  venue: VenueSchema,
  /** Lighter account index; null on other venues */
  accountIndex: v.nullable(v.string()),
  readAt: v.nullable(DateTimeSchema),
  ageMs: v.nullable(v.number()),
}

/**
 * Who in dn holds part of a venue position (docs/positions.md): a task's
 * leg, the part of one its close left at the venue (`left_at_venue`), the
 * owner's direct orders on that market together, or no one (a change made
 * outside dn: `unattributed`). `sizeBase` is signed, positive long; the
 * holders add up to the venue's net.
 */
const PositionHolder = v.object({
  kind: v.picklist([
    'task_leg',
    'left_at_venue',
    'direct_orders',
    'unattributed',
  ]),
  /** the task, for a task leg or what it left; else null */
  taskId: v.nullable(v.pipe(v.string(), v.uuid())),
  /** which leg of it; else null */
  leg: v.nullable(v.picklist(['long', 'short'])),
  sizeBase: DecimalStringSchema,
})

/** A net position as the venue showed it at `readAt`. */
const Position = v.object({
  market: MarketSchema,
  side: v.picklist(['long', 'short']),
  /** base size held, positive */
  sizeBase: DecimalStringSchema,
  entryPrice: DecimalStringSchema,
  markPrice: DecimalStringSchema,
  /** sizeBase × (mark − entry), negated for a short */
  unrealizedPnlUsd: DecimalStringSchema,
  leverage: DecimalStringSchema,
  marginMode: v.picklist(['cross', 'isolated']),
  liquidationPrice: v.nullable(DecimalStringSchema),
  /** who holds it: more than one when tasks or direct orders share it */
  holders: v.array(PositionHolder),
})
export type Position = v.InferOutput<typeof Position>
export type PositionHolder = v.InferOutput<typeof PositionHolder>

/** 200 answer of the positions read: every granted bound account. */
export const PositionList = v.object({
  accounts: v.array(v.object({ ...AccountRead, positions: v.array(Position) })),
})
export type PositionList = v.InferOutput<typeof PositionList>

const Usd = v.nullable(DecimalStringSchema)

/** 200 answer of the balances read: every granted bound account. */
export const BalanceList = v.object({
  accounts: v.array(
    v.object({
      ...AccountRead,
      /** account value: collateral with unrealized PnL */
      equityUsd: Usd,
      /** free for new margin or withdrawal */
      availableUsd: Usd,
      /** initial margin the positions hold */
      marginUsedUsd: Usd,
    }),
  ),
})
export type BalanceList = v.InferOutput<typeof BalanceList>
