import * as v from 'valibot'
import { UuidSchema } from './common.js'

/** 202 acknowledgement of an order command (create, cancel). */
export const OrderAck = v.object({
  orderId: UuidSchema,
  status: v.picklist(['pending', 'cancelled', 'cancel_queued']),
})
export type OrderAck = v.InferOutput<typeof OrderAck>
