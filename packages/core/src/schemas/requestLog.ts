import * as v from 'valibot'
import { DateTimeSchema, UuidSchema } from './common.js'

/** One logged API request (snake_case, as the contract names them). */
export const RequestLog = v.object({
  request_id: UuidSchema,
  action: v.string(),
  path: v.string(),
  task_id: v.nullable(UuidSchema),
  http_status: v.pipe(v.number(), v.integer()),
  error_code: v.nullable(v.string()),
  replayed: v.boolean(),
  created_at: DateTimeSchema,
  order_id: v.nullable(UuidSchema),
})
export type RequestLog = v.InferOutput<typeof RequestLog>

/** `GET /v1/requests` and `GET /v1/perp/requests`: latest 100, newest first. */
export const RequestLogList = v.object({
  requests: v.pipe(v.array(RequestLog), v.maxLength(100)),
})
export type RequestLogList = v.InferOutput<typeof RequestLogList>
