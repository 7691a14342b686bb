import type { PerpOrder } from '@dn/client'
import { ago, details } from '../output.js'

export const ORDER_COLUMNS = [
  'ORDER',
  'STATUS',
  'VENUE',
  'MARKET',
  'SIDE',
  'TYPE',
  'SIZE',
  'PRICE',
  'FILLED',
  'AVG',
  'UPDATED',
] as const

/** One row of `dn orders list`. */
export function orderRow(o: PerpOrder): Record<string, string> {
  return {
    ORDER: o.orderId,
    STATUS: o.status,
    VENUE: o.venue,
    MARKET: o.market,
    SIDE: o.side,
    TYPE: `${o.orderType} ${o.timeInForce}${o.reduceOnly ? ' reduce' : ''}`,
    SIZE: o.sizeBase,
    PRICE: o.limitPrice ?? 'market',
    FILLED: o.filledBase,
    AVG: o.averagePrice ?? '-',
    UPDATED: ago(o.updatedAt),
  }
}

/** `dn orders get`. */
export function orderDetails(o: PerpOrder): string {
  return details([
    ['order', o.orderId],
    ['status', o.status],
    ['venue status', o.venueStatus],
    ['market', `${o.venue}:${o.market}`],
    ['side', o.side],
    [
      'type',
      `${o.orderType} ${o.timeInForce}${o.reduceOnly ? ' reduce-only' : ''}`,
    ],
    ['size', o.sizeBase],
    ['sent size', o.requestedBase],
    ['limit price', o.limitPrice ?? 'market'],
    ['filled', o.filledBase],
    ['average price', o.averagePrice],
    ['client order id', o.clientOrderId],
    ['error', o.error],
    ['submitted', o.submittedAt],
    ['cancel requested', o.cancelRequestedAt],
    ['expires', `${o.expiresAt}`],
    ['created', `${o.createdAt} (${ago(o.createdAt)})`],
    ['updated', `${o.updatedAt} (${ago(o.updatedAt)})`],
    ...(o.resolution
      ? [['resolution', JSON.stringify(o.resolution)] as [string, unknown]]
      : []),
  ])
}
