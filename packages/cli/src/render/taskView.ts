import type { Task } from '@dn/client'
import { ago, details } from '../printOutput.js'

const leg = (venue: string, market: string) => `${venue}:${market}`

/** One row of `dn tasks list`. */
export function taskRow(t: Task): Record<string, string> {
  return {
    TASK: t.taskId,
    STATUS: t.status,
    LONG: leg(t.longVenue, t.longMarket),
    SHORT: leg(t.shortVenue, t.shortMarket),
    'SIZE USD': t.sizeUsd,
    'FUNDING USD': t.fundingUsd,
    UPDATED: ago(t.updatedAt),
  }
}

export const TASK_COLUMNS = [
  'TASK',
  'STATUS',
  'LONG',
  'SHORT',
  'SIZE USD',
  'FUNDING USD',
  'UPDATED',
] as const

/** `dn tasks get`: every field a person reads, both legs side by side. */
export function taskDetails(t: Task): string {
  const extra = t as Task & {
    pendingReason?: { message?: string } | null
    fundingApyNow?: string | null
  }
  return details([
    ['task', t.taskId],
    ['status', t.status],
    ...(extra.pendingReason?.message
      ? [['waiting', extra.pendingReason.message] as [string, unknown]]
      : []),
    [
      'long',
      `${leg(t.longVenue, t.longMarket)}  size ${t.longSize ?? '-'}  entry ${t.longEntry ?? '-'}  mark ${t.longPrice ?? '-'}  ${t.longLeverage ? `${t.longLeverage}x` : ''} ${t.longMarginMode ?? ''}`.trimEnd(),
    ],
    [
      'short',
      `${leg(t.shortVenue, t.shortMarket)}  size ${t.shortSize ?? '-'}  entry ${t.shortEntry ?? '-'}  mark ${t.shortPrice ?? '-'}  ${t.shortLeverage ? `${t.shortLeverage}x` : ''} ${t.shortMarginMode ?? ''}`.trimEnd(),
    ],
    ['size USD', t.sizeUsd],
    ['funding USD', t.fundingUsd],
    ...(extra.fundingApyNow !== undefined
      ? [
          [
            'funding APY now',
            extra.fundingApyNow === null ? '-' : `${extra.fundingApyNow}%`,
          ] as [string, unknown],
        ]
      : []),
    ['liq protection', t.liqProtectionPct ? `${t.liqProtectionPct}%` : '-'],
    ['size mismatch', t.sizeMismatchPct ? `${t.sizeMismatchPct}%` : '-'],
    ['close requested', t.closeRequestedAt],
    ['close reason', t.closeReason],
    ['error', t.error],
    ['created', `${t.createdAt} (${ago(t.createdAt)})`],
    ['updated', `${t.updatedAt} (${ago(t.updatedAt)})`],
  ])
}
