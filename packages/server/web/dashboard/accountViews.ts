import { positionHolderLabel } from '../../../core/src/domain/positionHolderLabel.js'
import type { BalanceAccount, PositionAccount } from './api.js'
import { h } from './dom.js'
import { dec, tone, usd } from './format.js'

const age = (ms: number | null) =>
  ms === null ? 'not read yet' : `read ${Math.round(ms / 1000)} s before`

/** Every position of the owner's bound accounts, as the worker last read. */
export function positionsTable(
  accounts: readonly PositionAccount[],
): HTMLElement {
  const rows = accounts.flatMap((a) =>
    a.positions.map((p) =>
      h(
        'tr',
        {},
        h('td', {}, a.venue),
        h('td', {}, p.market),
        h('td', {}, p.side),
        h('td', { class: 'n' }, p.sizeBase),
        h('td', { class: 'n' }, p.entryPrice),
        h('td', { class: 'n' }, p.markPrice),
        h('td', { class: 'n' }, dec(p.liquidationPrice)),
        h(
          'td',
          { class: `n ${tone(p.unrealizedPnlUsd)}` },
          usd(p.unrealizedPnlUsd),
        ),
        h('td', { class: 'muted' }, heldBy(p.holders)),
        h('td', { class: 'muted' }, age(a.ageMs)),
      ),
    ),
  )
  if (rows.length === 0) return h('p', { class: 'muted' }, 'No open positions.')
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'venue',
          'market',
          'side',
          'size',
          'entry',
          'mark',
          'liquidation',
          'unrealized',
          'held by',
          '',
        ].map((c) => h('th', {}, c)),
      ),
    ),
    h('tbody', {}, ...rows),
  )
}

/**
 * Who in dn holds a position: each task leg (the task id's first 8
 * characters), the direct orders, and what no one in dn holds; a
 * position two of them share says so.
 */
function heldBy(holders: PositionAccount['positions'][number]['holders']) {
  const parts = holders.map(positionHolderLabel)
  return holders.length > 1 ? `shared: ${parts.join(', ')}` : parts.join('')
}

/** Each bound account's collateral. */
export function balancesTable(
  accounts: readonly BalanceAccount[],
): HTMLElement {
  if (accounts.length === 0)
    return h('p', { class: 'muted' }, 'No bound accounts.')
  return h(
    'table',
    {},
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...['venue', 'equity', 'available', 'margin used', ''].map((c) =>
          h('th', {}, c),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...accounts.map((a) =>
        h(
          'tr',
          {},
          h('td', {}, a.venue),
          h('td', { class: 'n' }, usd(a.equityUsd)),
          h('td', { class: 'n' }, usd(a.availableUsd)),
          h('td', { class: 'n' }, usd(a.marginUsedUsd)),
          h('td', { class: 'muted' }, age(a.ageMs)),
        ),
      ),
    ),
  )
}
