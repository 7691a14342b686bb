import { type Page, paginate } from './paginate.js'
import { pollUntil, type WaitOptions } from './pollUntil.js'
import type { Transport } from './transport.js'
import type {
  CreatePerpOrder,
  ListQuery,
  PerpOrder,
  PerpOrderStatus,
  ResolveAck,
  ResolvePerpOrder,
} from './types.js'

const ORDERS = '/v1/perp/orders'

/**
 * States an order does not leave by itself. Not `unknown`: the worker keeps
 * reconciling it by client order id and it usually moves on to `filled` or
 * `rejected` (an operator resolves only one that expired unreconciled), so a
 * wait past `unknown` can still succeed and runs into its timeout otherwise.
 */
const ORDER_FINAL: readonly PerpOrderStatus[] = [
  'filled',
  'cancelled',
  'rejected',
  'expired',
]

/** What `waitFor` waits for unless told: resting at the venue, or over. */
const ORDER_SETTLED = [
  'open',
  'filled',
  'cancelled',
  'rejected',
  'expired',
  'unknown',
] as const
type OrderSettled = (typeof ORDER_SETTLED)[number]

export type OrderWaitOptions<U extends PerpOrderStatus = PerpOrderStatus> =
  WaitOptions<PerpOrderStatus, U, PerpOrder>

/** `client.orders`: direct perpetual orders. */
export function createOrderApi(request: Transport) {
  const page = (q: ListQuery<PerpOrderStatus> = {}) =>
    request<{ orders: PerpOrder[]; nextCursor: string | null }>('GET', ORDERS, {
      query: { ...q },
    })
  const get = (orderId: string, signal?: AbortSignal) =>
    request<{ order: PerpOrder }>('GET', `${ORDERS}/${orderId}`, {
      signal,
    }).then((r) => r.order)
  return {
    /** One page, newest first; pass `nextCursor` back as `cursor`. */
    page,
    /**
     * Every order matching `q`, page after page (`limit` is the page size).
     * @example for await (const o of client.orders.list({ status: 'open' }))
     */
    list: (
      q: Omit<ListQuery<PerpOrderStatus>, 'cursor'> = {},
    ): AsyncIterable<PerpOrder> =>
      paginate(
        (cursor): Promise<Page<PerpOrder>> =>
          page({ ...q, cursor }).then((r) => ({
            items: r.orders,
            nextCursor: r.nextCursor,
          })),
      ),
    get: (orderId: string) => get(orderId),
    create: (body: CreatePerpOrder, idempotencyKey?: string) =>
      request<{ orderId: string; status: 'pending' }>('POST', ORDERS, {
        body,
        idempotencyKey,
      }),
    cancel: (orderId: string, idempotencyKey?: string) =>
      request<{ orderId: string; status: 'cancelled' | 'cancel_queued' }>(
        'POST',
        `${ORDERS}/${orderId}/cancel`,
        { idempotencyKey },
      ),
    /** Operator attestation for an expired `unknown` order. */
    resolve: (
      orderId: string,
      body: ResolvePerpOrder,
      idempotencyKey?: string,
    ) =>
      request<ResolveAck>('POST', `${ORDERS}/${orderId}/resolve`, {
        body,
        idempotencyKey,
      }),
    /**
     * Polls until the order's status is one of `until` (default: open,
     * unknown or over). Throws DnWaitError as soon as the order reaches a
     * final status not awaited, DnTimeoutError after `timeoutMs`.
     */
    waitFor: <U extends PerpOrderStatus = OrderSettled>(
      orderId: string,
      w: OrderWaitOptions<U> = {},
    ): Promise<PerpOrder & { status: U }> =>
      pollUntil<PerpOrder, PerpOrderStatus>(
        {
          label: `order ${orderId}`,
          read: (signal) => get(orderId, signal),
          status: (o) => o.status,
          isFinal: (o) => ORDER_FINAL.includes(o.status),
          detail: (o) =>
            o.error
              ? `error: ${o.error}`
              : o.venueStatus
                ? `venue: ${o.venueStatus}`
                : undefined,
        },
        ORDER_SETTLED,
        w,
      ) as Promise<PerpOrder & { status: U }>,
  }
}
