import type { VenueId } from '../domain/venue.js'
import { RequestBudgetError } from '../errors/venue.js'
import type { RequestPriority } from '../limits/requestBudget.js'
import type { Clock } from '../ports/clock.js'
import type {
  VenueAdapter,
  VenueCredential,
  VenuePosition,
} from '../ports/venueAdapter.js'
import { createSharedRead } from '../util/sharedRead.js'

/**
 * Positions read once per venue account and shared by every task of its
 * owner: a caller passing `maxAgeMs` is served a snapshot that young,
 * and callers arriving while a read is in flight share it. Our own
 * orders' answers (place, cancel, lookups) may change positions, so the
 * account's snapshot is dropped after each and the next read is fresh.
 * A read the request budget holds back may be answered with the last
 * snapshot up to `budgetFallbackMs` old.
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

/** One venue account: the owner, and the account index where there is one. */
function accountKey(cred: VenueCredential): string {
  return `${cred.owner.toLowerCase()}|${cred.accountIndex ?? ''}`
}

function shareOne(adapter: VenueAdapter, clock: Clock): VenueAdapter {
  const reads = createSharedRead<
    string,
    VenuePosition[],
    { cred: VenueCredential; priority: RequestPriority | undefined }
  >(clock, (_key, ctx) => {
    if (!ctx) throw new Error('a positions read needs its credential')
    return adapter.positions(ctx.cred, { priority: ctx.priority })
  })
  const changed = (cred: VenueCredential) => reads.drop(accountKey(cred))
  return {
    venue: adapter.venue,
    rules: (symbol) => adapter.rules(symbol),
    quote: (symbol) => adapter.quote(symbol),
    async place(cred, order) {
      try {
        return await adapter.place(cred, order)
      } finally {
        changed(cred)
      }
    },
    async cancel(cred, market, clientOrderId) {
      try {
        return await adapter.cancel(cred, market, clientOrderId)
      } finally {
        changed(cred)
      }
    },
    async order(cred, market, clientOrderId) {
      const found = await adapter.order(cred, market, clientOrderId)
      if (found && found.filledBase !== '0') changed(cred)
      return found
    },
    async positions(cred, options) {
      const key = accountKey(cred)
      try {
        return (
          await reads.get(key, options?.maxAgeMs ?? 0, {
            cred,
            priority: options?.priority,
          })
        ).value
      } catch (err) {
        // dropped after our own orders, so never older than our last fill
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
  }
}
