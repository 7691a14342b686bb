import type { PerpOrder, Task } from '@dn/client'
import { ago, table } from '../output.js'

/**
 * Each venue position's liquidation price and how many holders in dn
 * share it (docs/positions.md), by `venue|market`, from the positions read.
 */
export type VenuePositions = ReadonlyMap<
  string,
  { readonly liq: string | null; readonly holders: number }
>

interface StatusData {
  readonly url: string
  readonly profile: string
  readonly at: number
  readonly running: readonly Task[]
  readonly pending: readonly Task[]
  readonly closing: readonly Task[]
  readonly ended: readonly Task[]
  readonly open: readonly PerpOrder[]
  readonly unknown: readonly PerpOrder[]
  readonly liquidation: VenuePositions
}

const num = (s: string | null | undefined) =>
  s === null || s === undefined ? undefined : Number(s)
const usd = (s: string | null | undefined) => {
  const n = num(s)
  return n === undefined ? '-' : n.toFixed(2)
}

/** (long mark − short mark) over their mean, in basis points. */
function spreadBps(t: Task): string {
  const l = num(t.longPrice)
  const s = num(t.shortPrice)
  if (l === undefined || s === undefined || l + s === 0) return '-'
  return `${(((l - s) / ((l + s) / 2)) * 10_000).toFixed(1)} bps`
}

/** How far the mark is from the leg's liquidation price, in percent. */
function liqDistance(
  t: Task,
  leg: 'long' | 'short',
  positions: VenuePositions,
): string {
  const liq = num(positions.get(legKey(t, leg))?.liq)
  const mark = num(leg === 'long' ? t.longPrice : t.shortPrice)
  if (liq === undefined || mark === undefined || mark === 0) return '-'
  return `${((Math.abs(mark - liq) / mark) * 100).toFixed(1)}%`
}

const legKey = (t: Task, leg: 'long' | 'short') =>
  leg === 'long'
    ? `${t.longVenue}|${t.longMarket}`
    : `${t.shortVenue}|${t.shortMarket}`

/** A running leg; `shared` where other holders share its venue position. */
const legName = (t: Task, leg: 'long' | 'short', positions: VenuePositions) => {
  const [venue, market, size] =
    leg === 'long'
      ? [t.longVenue, t.longMarket, t.longSize]
      : [t.shortVenue, t.shortMarket, t.shortSize]
  const shared = (positions.get(legKey(t, leg))?.holders ?? 0) > 1
  return `${venue}:${market} ${size ?? '-'}${shared ? ' shared' : ''}`
}

/** A task's error names a change made to its position outside dn. */
const externalChange = (t: Task) =>
  t.error?.startsWith('external change: ') === true

/**
 * One screen, as Hummingbot's `status`: what runs and earns, what waits
 * and why, what rests at the venues, and what needs a person.
 */
export function statusView(d: StatusData): string {
  const parts: string[] = [
    `dn status: ${d.url} (profile ${d.profile}) at ${new Date(d.at).toISOString().slice(0, 19)}Z`,
  ]
  const section = (title: string, count: number, body: string) =>
    parts.push('', `${title} (${count})`, count === 0 ? '  none' : body)

  section(
    'RUNNING TASKS',
    d.running.length,
    table(
      d.running.map((t) => ({
        TASK: t.taskId,
        LONG: legName(t, 'long', d.liquidation),
        SHORT: legName(t, 'short', d.liquidation),
        'SIZE USD': t.sizeUsd,
        SPREAD: spreadBps(t),
        'APY NOW': t.fundingApyNow === null ? '-' : `${t.fundingApyNow}%`,
        'FUNDING USD': usd(t.fundingUsd),
        'PNL USD': usd(t.pnl?.totalUsd),
        'LIQ DIST L/S': `${liqDistance(t, 'long', d.liquidation)} / ${liqDistance(t, 'short', d.liquidation)}`,
      })),
      [
        'TASK',
        'LONG',
        'SHORT',
        'SIZE USD',
        'SPREAD',
        'APY NOW',
        'FUNDING USD',
        'PNL USD',
        'LIQ DIST L/S',
      ],
    ),
  )
  section(
    'PENDING TASKS',
    d.pending.length,
    table(
      d.pending.map((t) => ({
        TASK: t.taskId,
        LONG: `${t.longVenue}:${t.longMarket}`,
        SHORT: `${t.shortVenue}:${t.shortMarket}`,
        'SIZE USD': t.sizeUsd,
        'WAITING FOR':
          t.pendingReason?.message ?? 'the worker (not yet evaluated)',
        SINCE: ago(t.createdAt, d.at),
      })),
      ['TASK', 'LONG', 'SHORT', 'SIZE USD', 'WAITING FOR', 'SINCE'],
    ),
  )
  if (d.closing.length > 0)
    section(
      'CLOSING TASKS',
      d.closing.length,
      table(
        d.closing.map((t) => ({
          TASK: t.taskId,
          REASON: t.closeReason ?? 'requested',
          SINCE: ago(t.closeRequestedAt ?? t.updatedAt, d.at),
          ERROR: t.error ?? '',
        })),
        ['TASK', 'REASON', 'SINCE', 'ERROR'],
      ),
    )
  section(
    'OPEN ORDERS',
    d.open.length,
    table(
      d.open.map((o) => ({
        ORDER: o.orderId,
        MARKET: `${o.venue}:${o.market}`,
        SIDE: o.side,
        SIZE: o.sizeBase,
        PRICE: o.limitPrice ?? 'market',
        FILLED: o.filledBase,
        EXPIRES: o.expiresAt.slice(0, 19),
      })),
      ['ORDER', 'MARKET', 'SIDE', 'SIZE', 'PRICE', 'FILLED', 'EXPIRES'],
    ),
  )
  section(
    'NEEDS ATTENTION: unknown orders',
    d.unknown.length,
    `${table(
      d.unknown.map((o) => ({
        ORDER: o.orderId,
        MARKET: `${o.venue}:${o.market}`,
        SIDE: o.side,
        SIZE: o.sizeBase,
        ERROR: o.error ?? '',
      })),
      ['ORDER', 'MARKET', 'SIDE', 'SIZE', 'ERROR'],
    )}\n  check each at its venue, then \`dn orders resolve\` (docs/operations.md)`,
  )
  const changed = [...d.running, ...d.closing, ...d.ended].filter(
    externalChange,
  )
  if (changed.length > 0)
    section(
      'NEEDS ATTENTION: external changes',
      changed.length,
      `${table(
        changed.map((t) => ({
          TASK: t.taskId,
          STATUS: t.status,
          CHANGE: (t.error ?? '').slice('external change: '.length),
        })),
        ['TASK', 'STATUS', 'CHANGE'],
      )}\n  a position changed outside dn (liquidation, ADL, a trade at the venue): see dn positions and docs/positions.md`,
    )
  section(
    'RECENTLY ENDED TASKS',
    d.ended.length,
    table(
      d.ended.map((t) => ({
        TASK: t.taskId,
        STATUS: t.status,
        REASON: t.closeReason ?? t.error ?? '',
        'PNL USD': usd(t.pnl?.totalUsd),
        'FUNDING USD': `${usd(t.fundingUsd)}${t.settling ? ' settling' : ''}`,
        ENDED: ago(t.updatedAt, d.at),
      })),
      ['TASK', 'STATUS', 'REASON', 'PNL USD', 'FUNDING USD', 'ENDED'],
    ),
  )
  return parts.join('\n')
}
