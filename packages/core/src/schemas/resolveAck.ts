import * as v from 'valibot'
import { UuidSchema } from './common.js'
import { PerpOrderResolution } from './perpOrder.js'

/** 200 result of resolving an `unknown` order. */
export const ResolveAck = v.object({
  orderId: UuidSchema,
  status: v.picklist(['filled', 'cancelled', 'expired', 'rejected']),
  resolution: PerpOrderResolution,
})
export type ResolveAck = v.InferOutput<typeof ResolveAck>
