import type { Task } from '@dn/client'
import { ago, details } from '../output.js'

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

const legLine = (t: Task, l: 'long' | 'short') => {
  const venue = l === 'long' ? t.longVenue : t.shortVenue
  const market = l === 'long' ? t.longMarket : t.shortMarket
  const size = l === 'long' ? t.longSize : t.shortSize
  const entry = l === 'long' ? t.longEntry : t.shortEntry
  const mark = l === 'long' ? t.longPrice : t.shortPrice
  const lev = l === 'long' ? t.longLeverage : t.shortLeverage
  const mode = l === 'long' ? t.longMarginMode : t.shortMarginMode
  const exit = t.pnl[l].exitPrice
  return [
    leg(venue, market),
    `size ${size ?? '-'}`,
    `entry ${entry ?? '-'}`,
    ...(exit ? [`exit ${exit}`] : []),
    `mark ${mark ?? '-'}`,
    ...(lev ? [`${lev}x`] : []),
    ...(mode ? [mode] : []),
  ].join('  ')
}

/** `total 1.23 USD (realized …, unrealized …, funding …, fees …)` */
const pnlLine = (t: Task) =>
  `${t.pnl.totalUsd} USD (realized ${t.pnl.realizedUsd}, unrealized ${t.pnl.unrealizedUsd}, funding ${t.pnl.fundingUsd}, fees ${t.pnl.feesUsd})`

/**
 * Said of a closed task whose close could not read its last funding or
 * fees: its totals are not final yet.
 */
const settlingNote = (t: Task) =>
  t.settling ? ' (settling: still being read from the venues)' : ''

/** `dn tasks get`: every field a person reads, both legs side by side. */
export function taskDetails(t: Task): string {
  return details([
    ['task', t.taskId],
    ['status', t.status],
    ...(t.pendingReason
      ? [['waiting', t.pendingReason.message] as [string, unknown]]
      : []),
    ['long', legLine(t, 'long')],
    ['short', legLine(t, 'short')],
    ['size USD', t.sizeUsd],
    ['funding USD', `${t.fundingUsd}${settlingNote(t)}`],
    ['funding APY now', t.fundingApyNow === null ? '-' : `${t.fundingApyNow}%`],
    ['PnL', pnlLine(t)],
    ['liq protection', t.liqProtectionPct ? `${t.liqProtectionPct}%` : '-'],
    ['size mismatch', t.sizeMismatchPct ? `${t.sizeMismatchPct}%` : '-'],
    ['close requested', t.closeRequestedAt],
    ['close reason', t.closeReason],
    ['error', t.error],
    ['created', `${t.createdAt} (${ago(t.createdAt)})`],
    ['updated', `${t.updatedAt} (${ago(t.updatedAt)})`],
  ])
}
