import * as v from 'valibot'
import {
  DateTimeSchema,
  DecimalStringSchema,
  UuidSchema,
  VenueSchema,
} from './common.js'

const PerpOrderStatusSchema = v.picklist([
  'pending',
  'submitting',
  'open',
  'partially_filled',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'unknown',
])

/**
 * The permanent audit an operator's resolve leaves on an `unknown` order:
 * prior accounting, final reported fills, evidence, actor key and time.
 * Further properties may be added (the JSON Schema leaves it open).
 */
export const PerpOrderResolution = v.object({
  status: v.picklist(['filled', 'cancelled', 'expired', 'rejected']),
  filledBase: DecimalStringSchema,
  averagePrice: v.nullable(DecimalStringSchema),
  evidence: v.string(),
  confirmNoOpenOrder: v.literal(true),
  confirmWorkersStopped: v.literal(true),
  prior: v.object({
    status: PerpOrderStatusSchema,
    filledBase: DecimalStringSchema,
    averagePrice: v.nullable(DecimalStringSchema),
  }),
  actorKeyId: v.string(),
  resolvedAt: DateTimeSchema,
})
export type PerpOrderResolution = v.InferOutput<typeof PerpOrderResolution>

/** A direct perpetual order as responses show it. */
export const PerpOrder = v.object({
  orderId: UuidSchema,
  venue: VenueSchema,
  market: v.string(),
  side: v.picklist(['long', 'short']),
  orderType: v.picklist(['market', 'limit']),
  sizeBase: DecimalStringSchema,
  limitPrice: v.nullable(DecimalStringSchema),
  timeInForce: v.picklist(['ioc', 'gtc', 'post_only']),
  slippageBps: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5000)),
  reduceOnly: v.boolean(),
  status: PerpOrderStatusSchema,
  requestedBase: v.nullable(DecimalStringSchema),
  filledBase: DecimalStringSchema,
  averagePrice: v.nullable(DecimalStringSchema),
  clientOrderId: v.string(),
  venueStatus: v.nullable(v.string()),
  error: v.nullable(v.string()),
  cancelRequestedAt: v.nullable(DateTimeSchema),
  submittedAt: v.nullable(DateTimeSchema),
  observedAt: v.nullable(DateTimeSchema),
  expiresAt: DateTimeSchema,
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
  resolution: v.optional(v.nullable(PerpOrderResolution)),
})
export type PerpOrder = v.InferOutput<typeof PerpOrder>

/** `GET /v1/perp/orders`: newest first, one page. */
export const PerpOrderList = v.object({
  orders: v.array(PerpOrder),
  nextCursor: v.nullable(v.string()),
})
export type PerpOrderList = v.InferOutput<typeof PerpOrderList>

/** `GET /v1/perp/orders/{orderId}`. */
export const PerpOrderResponse = v.object({ order: PerpOrder })
export type PerpOrderResponse = v.InferOutput<typeof PerpOrderResponse>
