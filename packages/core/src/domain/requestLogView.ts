import type { RequestLogRecord } from './requestLog.js'

export interface RequestLogView {
  readonly request_id: string
  readonly action: string
  readonly path: string
  readonly task_id: string | null
  readonly order_id: string | null
  readonly http_status: number
  readonly error_code: string | null
  readonly replayed: boolean
  readonly created_at: string
}

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
