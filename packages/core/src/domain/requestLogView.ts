import type { RequestLog } from '../schemas/requestLog.js'
import type { RequestLogRecord } from './requestLog.js'

/** The contract's RequestLog resource; its type comes from the response schema. */
export type RequestLogView = RequestLog

export function requestLogView(r: RequestLogRecord): RequestLogView {
  return {
    request_id: r.id,
    action: r.action,
    path: r.path,
    task_id: r.taskId,
    order_id: r.orderId,
    http_status: r.httpStatus,
    error_code: r.errorCode,
    replayed: r.replayed,
    created_at: r.createdAt,
  }
}
