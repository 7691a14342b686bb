import { type DnErrorCode, ERROR_CODES } from '@dn/core'

/** One documented error status of a route. */
interface ErrorStatus {
  readonly status: number
  readonly description: string
}

/**
 * A route's error statuses, ascending, each described by its codes' entries
 * in the core code table (no second list of descriptions to keep in step).
 *
 * @param codes The codes the route may answer.
 * @param reserved Statuses the contract lists that no code answers today.
 */
export function errorStatuses(
  codes: readonly DnErrorCode[],
  reserved: readonly number[] = [],
): ErrorStatus[] {
  const byStatus = new Map<number, DnErrorCode[]>()
  for (const code of new Set(codes)) {
    const { status } = ERROR_CODES[code]
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  for (const status of reserved) {
    if (!byStatus.has(status)) byStatus.set(status, [])
  }
  return [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, list]) => ({
      status,
      description:
        list.length === 0
          ? 'Listed by the contract; no code answers it today'
          : list
              .map((code) => `\`${code}\`: ${ERROR_CODES[code].description}`)
              .join('; '),
    }))
}
