import { reducesNet } from '../domain/positionLedger.js'
import type { VenueId } from '../domain/venue.js'
import type { VenueBindingRecord } from '../domain/venueBinding.js'
import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '../errors/venue.js'
import type { Store } from '../ports/store.js'
import type {
  LookupOptions,
  QuoteOptions,
  VenueAdapter,
  VenueOrder,
  VenueOrderRequest,
} from '../ports/venueAdapter.js'
import { createAesGcmSecrets } from '../secrets/createAesGcmSecrets.js'
import { createSqliteStore } from '../store/sqlite.js'
import { dec, decString } from '../util/decimal.js'
import { credentialAad } from './resolveCredential.js'
import type { WorkerDeps } from './workerDeps.js'

/**
 * What the next `place` does: fill it, rest it, refuse it, fail before
 * sending (`unavailable`), or fail after the venue took it (`landed`) or
 * before (`lost`) without saying which.
 */
export type PlaceScript =
  | 'fill'
  | 'rest'
  | 'reject'
  | 'unavailable'
  | 'landed'
  | 'lost'

/**
 * A venue in memory for worker-step tests: orders by client order id,
 * every call recorded, `place` answering as `script` says.
 */
/** What a lookup by client order id is called with. */
type LookupArgs = [
  cred: unknown,
  market: string,
  id: string,
  options?: LookupOptions,
]

function memoryVenue(venue: VenueId) {
  const orders = new Map<string, VenueOrder>()
  const sent: VenueOrderRequest[] = []
  const calls: string[] = []
  /** the priority each quote was asked at ('default' when none) */
  const quotes: string[] = []
  const state = {
    script: 'fill' as PlaceScript,
    mark: '100',
    /**
     * the venue's clock, which its lookups then tell (whole seconds, as
     * a `Date` header does); null: they do not
     */
    venueNow: null as (() => number) | null,
  }
  /** a lookup by client order id, noted in `calls` with its priority */
  const lookUp = (...[, , id, options]: LookupArgs) => {
    calls.push(
      options?.priority ? `order ${id} @${options.priority}` : `order ${id}`,
    )
    return orders.get(id) ?? null
  }
  /** the account's net position per market, as a netting venue keeps it */
  const nets = new Map<string, string>()
  const hold = (market: string, size: string) => {
    nets.set(market, decString(dec(nets.get(market) ?? '0').add(size)))
  }
  const book = (r: VenueOrderRequest, resting: boolean): VenueOrder => {
    if (!resting) hold(r.market, r.side === 'long' ? r.size : `-${r.size}`)
    const o: VenueOrder = {
      clientOrderId: r.clientOrderId,
      venueOrderId: String(orders.size + 1),
      state: resting ? 'open' : 'filled',
      size: r.size,
      filledBase: resting ? '0' : r.size,
      averagePrice: resting ? null : r.price,
      venueStatus: resting ? 'open' : 'filled',
      reason: null,
    }
    orders.set(r.clientOrderId, o)
    return o
  }
  const adapter = {
    venue,
    rules: async (symbol: string) =>
      symbol === 'GONE'
        ? undefined
        : {
            venue,
            symbol,
            tickSize: '0.1',
            maxSigFigs: null,
            sizeStep: '0.01',
            minNotionalUsd: '10',
            minBase: '0.01',
            maxLeverage: 20,
          },
    quote: async (symbol: string, read?: QuoteOptions) => {
      quotes.push(read?.priority ?? 'default')
      return {
        venue,
        symbol,
        mark: state.mark,
        bid: state.mark,
        ask: state.mark,
        fundingRateHourly: '0',
      }
    },
    place: async (_cred: unknown, r: VenueOrderRequest) => {
      calls.push(`place ${r.clientOrderId}`)
      if (
        r.reduceOnly &&
        !reducesNet(r.side, r.size, nets.get(r.market) ?? '0') &&
        (state.script === 'fill' || state.script === 'rest')
      ) {
        sent.push(r)
        throw new VenueRejectedError(
          'Reduce only order would increase position',
        )
      }
      switch (state.script) {
        case 'fill':
        case 'rest':
          sent.push(r)
          return book(r, state.script === 'rest')
        case 'reject':
          sent.push(r)
          throw new VenueRejectedError('insufficient margin')
        case 'unavailable':
          throw new VenueUnavailableError('venue down')
        case 'landed':
          sent.push(r)
          book(r, false)
          throw new UncertainSubmissionError('timed out')
        case 'lost':
          sent.push(r)
          throw new UncertainSubmissionError('timed out')
      }
    },
    order: async (...a: LookupArgs) => lookUp(...a),
    orderWithVenueTime: async (...a: LookupArgs) => {
      const at = state.venueNow?.()
      return {
        order: lookUp(...a),
        venueTimeAtLeast:
          at === undefined ? null : Math.floor(at / 1000) * 1000,
      }
    },
    visibilityLagMs: MEMORY_VISIBILITY_LAG_MS,
    positions: async () => {
      calls.push('positions')
      return [...nets]
        .filter(([, size]) => !dec(size).isZero())
        .map(([market, size]) => ({
          market,
          size,
          entryPrice: state.mark,
          markPrice: state.mark,
          leverage: '3',
          marginMode: 'cross',
          liquidationPrice: null,
        }))
    },
    cancel: async (_cred: unknown, _market: string, id: string) => {
      calls.push(`cancel ${id}`)
      const o = orders.get(id)
      if (o && (o.state === 'open' || o.state === 'partially_filled')) {
        orders.set(id, { ...o, state: 'cancelled', venueStatus: 'canceled' })
      }
    },
  } as unknown as VenueAdapter
  return {
    adapter,
    orders,
    sent,
    calls,
    quotes,
    state,
    /** adds `size` (signed) to the account's net position on `market` */
    hold,
  }
}

/** how late the memory venue may show an order past a deadline */
export const MEMORY_VISIBILITY_LAG_MS = 5_000

export const FIXTURE_OWNER = '0x00000000000000000000000000000000000000cc'
export const FIXTURE_NOW = Date.UTC(2030, 0, 1, 12)

/**
 * Worker deps over a SQLite store in memory, `venues` bound for
 * FIXTURE_OWNER, and a clock the test moves (`clock.ms`).
 */
export async function memoryWorker(venues: readonly VenueId[]) {
  const store: Store = await createSqliteStore({ filename: ':memory:' })
  const secrets = createAesGcmSecrets(Buffer.alloc(32, 9))
  const at = new Date(FIXTURE_NOW).toISOString()
  const memory = Object.fromEntries(venues.map((v) => [v, memoryVenue(v)]))
  for (const venue of venues) {
    const binding: VenueBindingRecord = {
      id: `b-${venue}`,
      owner: FIXTURE_OWNER,
      venue,
      status: 'bound',
      accountIndex: null,
      credentialRef: '0xagent',
      credentialCiphertext: secrets.encrypt(
        'secret',
        credentialAad(FIXTURE_OWNER, venue),
      ),
      unusableCode: null,
      createdAt: at,
      updatedAt: at,
    }
    await store.bindings.upsert(binding)
  }
  await store.apiKeys.insert({
    id: 'key-1',
    owner: FIXTURE_OWNER,
    env: 'live',
    venues: [...venues],
    maxSizeUsd: '1000',
    label: null,
    secretHash: 'ab'.repeat(32),
    createdAt: at,
    revokedAt: null,
  })
  const clock = { ms: FIXTURE_NOW, now: () => clock.ms }
  const deps = {
    store,
    clock,
    adapters: Object.fromEntries(
      venues.map((v) => [v, memory[v]?.adapter]),
    ) as unknown as WorkerDeps['adapters'],
    secrets,
    workerId: 'w-1',
    leaseMs: 30_000,
    fundingGraceMs: 3_600_000,
    logger: { info: () => {}, error: () => {} },
  } satisfies WorkerDeps
  return { deps, store, clock, venue: memory }
}
