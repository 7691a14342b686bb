import type { OrderSide } from '../domain/perpOrder.js'
import type { VenueId } from '../domain/venue.js'
import { RequestBudgetError } from '../errors/venue.js'
import type { RequestPriority } from '../limits/requestBudget.js'
import type { Clock } from '../ports/clock.js'
import type {
  VenueAdapter,
  VenueCredential,
  VenueOrder,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { dec, decString } from '../util/decimal.js'
import { createSharedRead } from '../util/sharedRead.js'
import { applyOwnFill } from './applyOwnFill.js'

/**
 * Positions read once per venue account and shared by every task of its
 * owner: a caller passing `maxAgeMs` is served a snapshot that young,
 * and callers arriving while a read is in flight share it.
 *
 * Our own orders change positions. A fill an order's answer reports
 * (place, or a lookup) is applied to the account's snapshot at once
 * (`applyOwnFill`), and the next positions() call reads the venue again
 * for what a fill moves that we cannot compute (the liquidation price);
 * while the request budget holds that read back, the snapshot with our
 * fills applied serves, up to `budgetFallbackMs` after its venue read. An
 * order whose effect is unknown (a send that failed, a cancel, a fill of
 * an order this process did not place) drops the snapshot instead: the
 * next read is fresh and nothing older serves in its place.
 */
export function shareAccountReads(
  adapters: Readonly<Record<VenueId, VenueAdapter>>,
  clock: Clock,
): Readonly<Record<VenueId, VenueAdapter>> {
  const out = {} as Record<VenueId, VenueAdapter>
  for (const [venue, adapter] of Object.entries(adapters) as [
    VenueId,
    VenueAdapter,
  ][]) {
    out[venue] = shareOne(adapter, clock)
  }
  return out
}

/**
 * When the venue read behind each positions snapshot the wrapped adapters
 * served was sent, and when its answer arrived: a snapshot that arrived
 * before an order was sent cannot show that order's fills
 */
const readTimes = new WeakMap<
  readonly VenuePosition[],
  { readonly sent: number; readonly answered: number }
>()

/**
 * Unix ms the venue read behind `positions` was sent (our own fills since
 * applied), when a wrapped adapter served it; undefined otherwise.
 */
export function positionsReadAt(
  positions: readonly VenuePosition[],
): number | undefined {
  return readTimes.get(positions)?.sent
}

/** One venue account: the owner, and the account index where there is one. */
function accountKey(cred: VenueCredential): string {
  return `${cred.owner.toLowerCase()}|${cred.accountIndex ?? ''}`
}

/**
 * Our orders remembered per venue, oldest forgotten first: kept after
 * they end, since a lookup may repeat a final order's fills (a forgotten
 * one only costs a fresh read).
 */
const ORDERS_KEPT = 10_000

interface OwnOrder {
  readonly market: string
  readonly side: OrderSide
  /** base filled that the snapshot already shows */
  applied: string
  /** Unix ms its last send started */
  sentAt: number
}

/** How long a caller that may be served a stale snapshot waits for a read. */
const STALE_PATIENCE_MS = 250

/** The read's answer if it comes within STALE_PATIENCE_MS, else `stale`. */
function servedOrRead<T>(
  read: Promise<{ readonly value: T }>,
  stale: T,
): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(stale), STALE_PATIENCE_MS)
    timer.unref?.()
    read.then(
      (snap) => {
        clearTimeout(timer)
        resolve(snap.value)
      },
      () => {
        clearTimeout(timer)
        resolve(stale)
      },
    )
  })
}

function shareOne(adapter: VenueAdapter, clock: Clock): VenueAdapter {
  const reads = createSharedRead<
    string,
    VenuePosition[],
    { cred: VenueCredential; priority: RequestPriority | undefined }
  >(clock, async (_key, ctx) => {
    if (!ctx) throw new Error('a positions read needs its credential')
    const sentAt = clock.now()
    const value = await adapter.positions(ctx.cred, { priority: ctx.priority })
    readTimes.set(value, { sent: sentAt, answered: clock.now() })
    return value
  })
  /** accounts whose snapshot carries fills since its read: read again */
  const amended = new Set<string>()
  /** our orders by account and client order id, with what they filled */
  const orders = new Map<string, OwnOrder>()
  const changed = (cred: VenueCredential) => {
    amended.delete(accountKey(cred))
    reads.drop(accountKey(cred))
  }

  /** Applies what `found` filled beyond what the snapshot shows. */
  function filled(cred: VenueCredential, found: VenueOrder) {
    const account = accountKey(cred)
    const key = `${account}|${found.clientOrderId}`
    const own = orders.get(key)
    const more = dec(found.filledBase).sub(own?.applied ?? '0')
    if (!more.gt(0)) return
    if (!own) {
      changed(cred)
      return
    }
    own.applied = found.filledBase
    const held = reads.peek(account)
    // a snapshot the venue answered after the order went out may show
    // this fill already: applied again, it doubled it (the venue-fault
    // suite: a close's slow answer applied to a read that had its fill
    // left a task's net at 0 where the venue held its short, and the
    // task closed as liquidated, its leg left at the venue). Such a
    // snapshot is dropped: the next read is fresh.
    const times = held && readTimes.get(held.value)
    if (times === undefined || times.answered >= own.sentAt) {
      changed(cred)
      return
    }
    const next =
      held &&
      applyOwnFill(held.value, {
        market: own.market,
        side: own.side,
        base: decString(more),
        price: found.averagePrice,
      })
    if (!next || !held) {
      changed(cred)
      return
    }
    readTimes.set(next, times)
    reads.amend(account, () => next)
    amended.add(account)
  }

  return {
    venue: adapter.venue,
    sendWindowMs: adapter.sendWindowMs,
    rules: (symbol) => adapter.rules(symbol),
    quote: (symbol, read) => adapter.quote(symbol, read),
    builderFeeRate: (paired) => adapter.builderFeeRate?.(paired) ?? '0',
    async place(cred, order) {
      const key = `${accountKey(cred)}|${order.clientOrderId}`
      const own = orders.get(key)
      if (own) {
        own.sentAt = clock.now()
      } else {
        orders.set(key, {
          market: order.market,
          side: order.side,
          applied: '0',
          sentAt: clock.now(),
        })
        if (orders.size > ORDERS_KEPT) {
          const oldest = orders.keys().next().value
          if (oldest !== undefined) orders.delete(oldest)
        }
      }
      let placed: VenueOrder
      try {
        placed = await adapter.place(cred, order)
      } catch (err) {
        changed(cred)
        throw err
      }
      filled(cred, placed)
      return placed
    },
    async cancel(cred, market, clientOrderId) {
      try {
        return await adapter.cancel(cred, market, clientOrderId)
      } finally {
        changed(cred)
      }
    },
    async order(cred, market, clientOrderId, options) {
      const found = await adapter.order(cred, market, clientOrderId, options)
      if (found) filled(cred, found)
      return found
    },
    // a venue that tells its clock at lookups goes on telling it
    ...timedOrderOf(adapter, (cred, found) => filled(cred, found)),
    async positions(cred, options) {
      if (options?.fresh) {
        // past every snapshot and stream; what this process held may be
        // older than another's fills, so it is dropped
        const value = await adapter.positions(cred, {
          priority: options.priority,
          fresh: true,
        })
        changed(cred)
        return value
      }
      const key = accountKey(cred)
      const fresh = amended.has(key)
      const ctx = { cred, priority: options?.priority }
      const last = reads.peek(key)
      if (
        !fresh &&
        last !== undefined &&
        clock.now() - last.at <= (options?.staleWhileReadMs ?? 0)
      ) {
        // the read it is due for (if any) goes out and answers if it comes
        // at once; else the snapshot does. A failure shows once the
        // snapshot is too old to serve and a caller waits for a read
        return servedOrRead(
          reads.get(key, options?.maxAgeMs ?? 0, ctx),
          last.value,
        )
      }
      try {
        const snap = await reads.get(
          key,
          // -1: read even within the millisecond of the last read
          fresh ? -1 : (options?.maxAgeMs ?? 0),
          ctx,
        )
        // a read sent after the last fill shows it
        if (fresh && reads.peek(key) === snap) amended.delete(key)
        return snap.value
      } catch (err) {
        const last = reads.peek(key)
        const fallback = options?.budgetFallbackMs ?? 0
        if (
          err instanceof RequestBudgetError &&
          last !== undefined &&
          clock.now() - last.at <= fallback
        ) {
          return last.value
        }
        throw err
      }
    },
    funding: (cred, market, since, options) =>
      adapter.funding(cred, market, since, options),
    accountReadsPerMinute: () => adapter.accountReadsPerMinute?.(),
    streamAccounts: (accounts) => adapter.streamAccounts?.(accounts),
    accountStreamed: (owner) => adapter.accountStreamed?.(owner) === true,
    // a venue without a dead-man switch keeps showing none
    ...armOf(adapter),
    ...balancesOf(adapter),
    ...orderFeesOf(adapter),
  }
}

function timedOrderOf(
  adapter: VenueAdapter,
  filled: (cred: VenueCredential, found: VenueOrder) => void,
): Pick<VenueAdapter, 'orderWithVenueTime' | 'visibilityLagMs'> {
  const timed = adapter.orderWithVenueTime?.bind(adapter)
  if (!timed) return {}
  return {
    async orderWithVenueTime(cred, market, clientOrderId, options) {
      const found = await timed(cred, market, clientOrderId, options)
      if (found.order) filled(cred, found.order)
      return found
    },
    visibilityLagMs: adapter.visibilityLagMs,
  }
}

function orderFeesOf(adapter: VenueAdapter): Pick<VenueAdapter, 'orderFees'> {
  const orderFees = adapter.orderFees?.bind(adapter)
  return orderFees ? { orderFees } : {}
}

function balancesOf(adapter: VenueAdapter): Pick<VenueAdapter, 'balances'> {
  const balances = adapter.balances?.bind(adapter)
  return balances ? { balances } : {}
}

function armOf(
  adapter: VenueAdapter,
): Pick<VenueAdapter, 'cancelAllSwitch' | 'armCancelAll'> {
  const arm = adapter.armCancelAll?.bind(adapter)
  if (!arm) return {}
  return { cancelAllSwitch: adapter.cancelAllSwitch, armCancelAll: arm }
}
