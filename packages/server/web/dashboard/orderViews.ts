import type { PerpOrder } from './api.js'
import { h } from './dom.js'
import { dec, time } from './format.js'

/**
 * The `unknown` orders, flagged with what to do (the runbook of
 * docs/operations.md, "Resolving an unknown order").
 */
export function unknownOrders(
  orders: readonly PerpOrder[],
): HTMLElement | null {
  if (orders.length === 0) return null
  return h(
    'section',
    { class: 'alert', id: 'unknown-orders', role: 'alert' },
    h(
      'h2',
      {},
      `${orders.length} order${orders.length === 1 ? '' : 's'} in state unknown`,
    ),
    h(
      'p',
      {},
      'The outcome of the submission could not be learned. The worker keeps looking each one up by its client order id: one found at the venue is reconciled, one never seen ends expired about two minutes after it was sent. Only one the venue showed once and no longer reports needs you:',
    ),
    h(
      'ol',
      { class: 'runbook' },
      h(
        'li',
        {},
        'Note its venue, market, client order id, size and submittedAt (below; ',
        h('code', {}, 'dn orders get <orderId>'),
        ').',
      ),
      h(
        'li',
        {},
        "At the venue, find the order by its client order id and the account's fills for that market since submittedAt.",
      ),
      h(
        'li',
        {},
        h('code', {}, 'dn worker fence'),
        ', and make sure no worker is running.',
      ),
      h(
        'li',
        {},
        'Resolve it with what the venue shows: ',
        h(
          'code',
          {},
          "dn orders resolve <orderId> --status filled --filled-base 0.001 --average-price 97123.5 --evidence 'hl fills 0x… at 12:01:03' --confirm-no-open-order --confirm-workers-stopped",
        ),
        ' (or POST /v1/perp/orders/{orderId}/resolve).',
      ),
      h(
        'li',
        {},
        'Start the workers again. See docs/operations.md, "Resolving an unknown order".',
      ),
    ),
    h(
      'ul',
      { class: 'unknown-list' },
      ...orders.map((o) =>
        h(
          'li',
          { 'data-order': o.orderId },
          h('strong', {}, o.orderId),
          ` · ${o.venue} ${o.market} ${o.side} ${o.sizeBase} · client order id `,
          h('code', {}, o.clientOrderId),
          ` · submitted ${time(o.submittedAt)}`,
          o.error ? ` · ${o.error}` : '',
        ),
      ),
    ),
  )
}

/** A state timeline: each step with its time, the ones not reached dimmed. */
function timeline(o: PerpOrder): HTMLElement {
  const steps: [string, string | null][] = [
    ['created', o.createdAt],
    ['submitted', o.submittedAt],
    ['observed', o.observedAt],
    ['cancel requested', o.cancelRequestedAt],
    ['updated', o.updatedAt],
  ]
  return h(
    'ol',
    { class: 'timeline' },
    ...steps.map(([name, at]) =>
      h('li', { class: at ? '' : 'muted' }, h('span', {}, name), ' ', time(at)),
    ),
  )
}

/** The latest orders with their state timelines. */
export function ordersTable(orders: readonly PerpOrder[]): HTMLElement {
  if (orders.length === 0) return h('p', { class: 'muted' }, 'No orders.')
  return h(
    'table',
    { class: 'orders' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'status',
          'order',
          'size / filled',
          'avg price',
          'timeline',
          'venue status',
        ].map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      ...orders.map((o) =>
        h(
          'tr',
          {
            'data-order': o.orderId,
            'data-status': o.status,
            class: o.status === 'unknown' ? 'flag' : '',
          },
          h('td', {}, h('span', { class: `badge s-${o.status}` }, o.status)),
          h(
            'td',
            {},
            `${o.venue} ${o.market} ${o.side} ${o.orderType} ${o.timeInForce}`,
            h('div', { class: 'muted' }, o.orderId),
          ),
          h('td', { class: 'n' }, `${o.sizeBase} / ${o.filledBase}`),
          h('td', { class: 'n' }, dec(o.averagePrice)),
          h('td', {}, timeline(o)),
          h(
            'td',
            {},
            o.venueStatus ?? '—',
            o.error ? h('div', { class: 'error-note' }, o.error) : null,
          ),
        ),
      ),
    ),
  )
}
