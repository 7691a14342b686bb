import type { OrderSide, TimeInForce } from '../domain/perpOrder.js'
import type { VenueId } from '../domain/venue.js'
import type { RequestPriority } from '../limits/requestBudget.js'
import type { MarketQuote, MarketRules } from './marketData.js'

/** The account a venue call acts for, with its decrypted credential. */
export interface VenueCredential {
  readonly owner: string
  readonly venue: VenueId
  /** Lighter account index; null elsewhere */
  readonly accountIndex: string | null
  /** public part (agent address, API key index) */
  readonly credentialRef: string | null
  /** decrypted secret (agent private key, Lighter API key); never logged */
  readonly secret: string | null
}

/** An order as the adapter sends it: already rounded to venue precision. */
export interface VenueOrderRequest {
  readonly market: string
  readonly side: OrderSide
  /** base size, a multiple of the size step */
  readonly size: string
  /** limit price, or the protection price of a market order; on tick */
  readonly price: string
  /** market orders are sent as IOC limits at the protection price */
  readonly timeInForce: TimeInForce
  readonly reduceOnly: boolean
  /** deterministic id the order can be found by after an uncertain send */
  readonly clientOrderId: string
  /**
   * A strategy leg whose other leg is on a Lighter venue: where a builder
   * fee is charged (hl, aster), it is doubled (contract: 0.015% → 0.03%)
   */
  readonly pairedWithLighter?: boolean | undefined
  /**
   * Unix ms after which the venue must not execute this request. Adapters
   * put it inside what they sign (Hyperliquid `expiresAfter`, Lighter
   * `ExpiredAt`, Aster's nonce window) and refuse to send, with
   * VenueUnavailableError, when they cannot honour it. So an order the
   * venue does not know some time after `validUntil` never will exist.
   */
  readonly validUntil?: number | undefined
}

export type VenueOrderState =
  | 'open'
  | 'partially_filled'
  | 'filled'
  | 'cancelled'
  | 'rejected'
  | 'expired'

/** The venue's view of one order. */
/** A finished order whose fees are looked up (`VenueAdapter.orderFees`). */
export interface VenueFilledOrder {
  readonly clientOrderId: string
  readonly venueOrderId: string | null
  readonly filledBase: string
  /** Unix ms at or before the order's first fill */
  readonly since: number
}

export interface VenueOrder {
  readonly clientOrderId: string
  readonly venueOrderId: string | null
  readonly state: VenueOrderState
  /** size the venue accepted */
  readonly size: string
  readonly filledBase: string
  readonly averagePrice: string | null
  /**
   * the venue's trading fees its fills paid so far, USD, when the answer
   * tells (the simulated venues do; the real ones' order answers do not,
   * see `VenueAdapter.orderFees`); absent when it does not
   */
  readonly feeUsd?: string | undefined
  /** the venue's own status word, shown as `venueStatus` */
  readonly venueStatus: string
  /** reason of a reject or cancel, when the venue gives one */
  readonly reason: string | null
}

/**
 * A lookup by client order id with when, on the venue's clock, it was
 * answered (`VenueAdapter.orderWithVenueTime`).
 */
export interface TimedVenueOrder {
  /** null when the venue knows no such order */
  readonly order: VenueOrder | null
  /**
   * Unix ms the venue's clock had at least reached when it produced the
   * answer: the start of the second its HTTP `Date` header names (the
   * earliest, when the lookup read more than once); null when an answer
   * did not say
   */
  readonly venueTimeAtLeast: number | null
}

/** How urgently a lookup by client order id is sent. */
export interface LookupOptions {
  /**
   * @default 'urgent'; `order` for the lookup that may prove a send never
   * placed, which decides whether the order goes again (it is part of
   * sending it)
   */
  readonly priority?: RequestPriority | undefined
}

export type MarginMode = 'cross' | 'isolated'

/** A net position; `size` is signed: positive long, negative short. */
export interface VenuePosition {
  readonly market: string
  readonly size: string
  readonly entryPrice: string
  readonly markPrice: string
  readonly leverage: string
  readonly marginMode: MarginMode
  readonly liquidationPrice: string | null
}

/**
 * An account's collateral in USD, as the venue reports it (exact decimal
 * strings). On a venue with several clearinghouses (Hyperliquid builder
 * dexes) it is the main one's.
 */
export interface VenueBalance {
  /** account value: collateral with unrealized PnL */
  readonly equityUsd: string
  /** free for new margin or withdrawal */
  readonly availableUsd: string
  /** initial margin the positions hold */
  readonly marginUsedUsd: string
  /** Unix ms the venue read it came from was sent */
  readonly at: number
}

/** One funding settlement on a position; `amountUsd` > 0 is received. */
export interface FundingPayment {
  readonly market: string
  readonly time: string
  readonly amountUsd: string
  readonly rate: string
  readonly positionSize: string
}

/** An account a venue may stream, its credential resolved on demand. */
export interface StreamedAccount {
  readonly owner: string
  credential(): Promise<VenueCredential>
}

/** How urgently a quote's REST read is sent (`VenueAdapter.quote`). */
export interface QuoteOptions {
  readonly priority?: RequestPriority | undefined
}

/** How a read may be served and how urgently it is sent. */
export interface ReadOptions {
  /** a snapshot at most this old may be served instead of a new read @default 0 */
  readonly maxAgeMs?: number | undefined
  /** @default 'routine' (funding: 'history') */
  readonly priority?: RequestPriority | undefined
  /**
   * When the request budget holds the read back, a snapshot at most this
   * old may be served instead of failing (a snapshot our own orders made
   * stale never is) @default 0
   */
  readonly budgetFallbackMs?: number | undefined
  /**
   * A snapshot older than `maxAgeMs` but at most this old is served when
   * the read it is due for does not answer within a moment (stale while
   * reading): a monitor evaluates with what it has instead of waiting on
   * the venue and its budget @default 0
   */
  readonly staleWhileReadMs?: number | undefined
  /**
   * A read sent now to the venue's API, never a snapshot nor a stream's
   * push (which another process's fills, or a stalled stream, may have
   * left behind): what a rule that closes on a position's absence must
   * see before it acts @default false
   */
  readonly fresh?: boolean | undefined
}

/**
 * How a venue's dead-man switch (`VenueAdapter.armCancelAll`) works.
 */
export interface CancelAllSwitch {
  /**
   * `account`: one switch cancels every resting order of the account, on
   * every market, the service's or not (Hyperliquid, Lighter); `market`:
   * one switch per market, cancelling that market's orders (Aster)
   */
  readonly scope: 'account' | 'market'
  /** least ms ahead of now the venue accepts the cancel time */
  readonly minLeadMs: number
  /** most ms ahead of now the venue accepts the cancel time */
  readonly maxLeadMs: number
}

/**
 * One venue, as the worker and the API see it. Implemented by the real
 * adapters (Hyperliquid, Lighter, Aster) and by the paper adapters over the
 * simulated exchange.
 *
 * Errors: VenueUnavailableError (not sent), VenueRejectedError (refused),
 * UncertainSubmissionError (maybe placed), VenueAccountNotFoundError.
 */
export interface VenueAdapter {
  readonly venue: VenueId
  /** @returns undefined when the venue does not list `symbol` */
  rules(symbol: string): Promise<MarketRules | undefined>
  /**
   * The symbols the venue lists now, from the same cached listing `rules`
   * reads; absent on an adapter that cannot list its markets
   */
  symbols?(): Promise<readonly string[]>
  /**
   * A fresh quote: the market stream's while it is fresh, else one shared
   * REST read. `options.priority` is that read's (@default the adapter's
   * own for quotes, ahead of routine reads); `order` for the quote an
   * order is priced from just before it is sent, which is part of sending
   * it: under faults a spent urgent share held a market order unpriced
   * until its queue deadline (the venue-fault suite)
   */
  quote(symbol: string, options?: QuoteOptions): Promise<MarketQuote>
  /**
   * The builder fee this adapter attaches to an order, as a fraction of
   * its filled notional (contract: 0.00015, doubled on a strategy leg
   * paired with a Lighter venue); absent or '0' where none is charged
   */
  builderFeeRate?(pairedWithLighter: boolean): string
  place(cred: VenueCredential, order: VenueOrderRequest): Promise<VenueOrder>
  /**
   * The venue's trading fees one finished order's fills paid, USD, read
   * from the account's fill history: the order answers of the real venues
   * carry none. Null when the history does not show every fill yet or
   * states a fee in an asset other than the USD collateral. Costs request
   * weight; the worker calls it once per filled task leg order, and not
   * at all when the order answer carried `feeUsd`. Absent: never known.
   * @throws {VenueUnavailableError} when the venue cannot be read now
   */
  orderFees?(
    cred: VenueCredential,
    market: string,
    order: VenueFilledOrder,
  ): Promise<string | null>
  /** Cancels by client order id; resolves also when already final. */
  cancel(
    cred: VenueCredential,
    market: string,
    clientOrderId: string,
  ): Promise<void>
  /** @returns null when the venue knows no such order */
  order(
    cred: VenueCredential,
    market: string,
    clientOrderId: string,
    options?: LookupOptions,
  ): Promise<VenueOrder | null>
  /**
   * `order`, with the venue's clock when it answered: a "no such order"
   * answered after the venue's clock passed a send's signed deadline by
   * `visibilityLagMs` proves that send never placed, with no allowance for
   * our clock's skew (`venueOrderMachine`). Absent where the adapter
   * cannot tell; the worker then waits out its own clock's allowance.
   */
  orderWithVenueTime?(
    cred: VenueCredential,
    market: string,
    clientOrderId: string,
    options?: LookupOptions,
  ): Promise<TimedVenueOrder>
  /**
   * How long after the venue's clock passed a request's signed deadline
   * an order it accepted by then may still be missing from the answers of
   * `order` (its matching, and the read path behind it); read with
   * `orderWithVenueTime` @default DEFAULT_VISIBILITY_LAG_MS
   */
  readonly visibilityLagMs?: number | undefined
  /**
   * How long after its commit a send may still be executed: the worker
   * saves commit + this as the send's deadline and the adapter signs it
   * into the request (`validUntil`), so a send whose answer was lost is
   * proven never placed that much sooner. It must cover the wait for the
   * venue's budget and signing; a send it does not cover is not sent
   * (and goes again). @default SEND_WINDOW_MS
   */
  readonly sendWindowMs?: number | undefined
  positions(
    cred: VenueCredential,
    options?: ReadOptions,
  ): Promise<VenuePosition[]>
  /**
   * The account's collateral. Where the positions read carries it
   * (Hyperliquid `clearinghouseState`, Lighter `account`), the balance of
   * the last positions read at most `maxAgeMs` old serves with no request;
   * otherwise it is one read through the venue's budget at `priority`.
   * Absent on an adapter that cannot tell.
   */
  balances?(cred: VenueCredential, options?: ReadOptions): Promise<VenueBalance>
  /**
   * Positions reads a minute that routine monitoring may send to the
   * venue's per-IP limits, all accounts together (this deployment's budget
   * share under the routine ceiling); undefined when a read counts only
   * against its account's own limit (Lighter) or the venue has none.
   */
  accountReadsPerMinute?(): number | undefined
  /**
   * The accounts the monitor watches on this venue, busiest first: a
   * venue with user streams streams the first ones it may (Hyperliquid:
   * 10 users per IP) and serves their positions from the stream, with no
   * request. A venue whose stream needs the account's key (Aster's
   * listenKey, Lighter's auth token) asks for it through `credential`.
   */
  streamAccounts?(accounts: readonly StreamedAccount[]): void
  /** True while `owner`'s positions come fresh from a user stream. */
  accountStreamed?(owner: string): boolean
  /**
   * The venue's dead-man switch, where it has one: how `armCancelAll`
   * may be called. Present exactly when `armCancelAll` is.
   */
  readonly cancelAllSwitch?: CancelAllSwitch | undefined
  /**
   * Schedules the venue's own cancel of the account's resting orders at
   * `at` (Unix ms, between `minLeadMs` and `maxLeadMs` ahead), replacing
   * the schedule it had, or clears it (`at` null): a dead-man switch the
   * worker keeps pushing out while orders rest, so they do not rest
   * forever once every worker is dead. `markets` are the markets it is
   * for: a `market`-scoped venue arms (or clears) one switch per market
   * named, an `account`-scoped one arms one for the whole account.
   * Sent through the venue's budget at order priority.
   *
   * Errors: VenueRejectedError (refused: a time out of range, a venue
   * rule such as Hyperliquid's traded-volume requirement),
   * VenueUnavailableError (not sent), UncertainSubmissionError.
   */
  armCancelAll?(
    cred: VenueCredential,
    markets: readonly string[],
    at: number | null,
  ): Promise<void>
  /** Funding settlements on `market` at or after `since` (ISO). */
  funding(
    cred: VenueCredential,
    market: string,
    since: string,
    options?: ReadOptions,
  ): Promise<FundingPayment[]>
}
