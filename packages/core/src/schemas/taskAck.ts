import * as v from 'valibot'
import { UuidSchema } from './common.js'

/** 202 acknowledgement of a task command (create, cancel, close, resize). */
export const TaskAck = v.object({
  taskId: UuidSchema,
  status: v.picklist(['pending', 'cancelled', 'close_queued', 'resizing']),
})
export type TaskAck = v.InferOutput<typeof TaskAck>
