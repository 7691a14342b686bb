import type { WorkerStopReport } from '@dn/core'
import type { ServerCloseReport } from '@dn/server'

/** What a stopping process left, in one line's words. */
export function describeShutdown(left: {
  readonly http?: ServerCloseReport | undefined
  readonly worker?: WorkerStopReport | undefined
}): string {
  const parts: string[] = []
  if (left.http) {
    parts.push(
      left.http.cut === 0
        ? 'every request answered'
        : `${left.http.cut} request(s) cut at the deadline`,
    )
  }
  if (left.worker) {
    const { left: items, released } = left.worker
    parts.push(
      items.length === 0
        ? 'no work in flight'
        : `${items.length} work item(s) still in flight, their leases left to expire (${items.join(', ')})`,
    )
    if (released > 0) {
      parts.push(`${released} lease(s) of failed items given back`)
    }
  }
  return parts.join('; ')
}
