import {
  type Clock,
  createSharedRead,
  dec,
  decString,
  type FundingPayment,
  HOUR_MS,
  hourStart,
  type LookupOptions,
  type MarketQuote,
  type MarketRules,
  type QuoteOptions,
  type ReadOptions,
  type RequestBudget,
  type RequestPriority,
  type StreamedAccount,
  systemClock,
  UncertainSubmissionError,
  type VenueAdapter,
  type VenueBalance,
  type VenueCredential,
  type VenueFilledOrder,
  type VenueOrder,
  type VenueOrderRequest,
  type VenueOrderState,
  type VenuePosition,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import type { Hex } from 'viem'
import { localAccount } from '../../signing/localAccount.js'
import { fundingReadKey } from '../../wire/fundingReadKey.js'
import { createHeldBalances } from '../../wire/heldBalances.js'
import { decField, isObj, unexpectedAnswer } from '../../wire/jsonFields.js'
import {
  freshFromStream,
  type MarketStream,
  quoteFromStream,
} from '../../wire/marketStream.js'
import { createStreamQuarantine } from '../../wire/streamQuarantine.js'
import { orderWithVenueTime } from '../../wire/venueClock.js'
import { hlInfoWeight } from '../limits/hlInfoWeight.js'
import { HL_STREAM_USERS_PER_IP } from '../limits/hlLimits.js'
import { isValidHlPrice } from '../precision/formatHlPrice.js'
import { signL1Action } from '../signing/l1Signature.js'
import { createNonceClock } from '../signing/nonceClock.js'
import {
  cancelByCloidAction,
  type HlTif,
  orderAction,
} from '../signing/orderAction.js'
import type { HlStream } from '../stream/createHlMarketStream.js'
import { armHlCancelAll, HL_CANCEL_ALL_SWITCH } from './armHlCancelAll.js'
import { parseHlBalance } from './hlBalance.js'
import { createHlCumFunding, HL_SETTLED_AFTER_MS } from './hlCumFunding.js'
import { hlExchangeResponse } from './hlExchangeResponse.js'
import { createHlUserFills, hlOrderFills } from './hlOrderFills.js'
import {
  createHlBudget,
  createHlTransport,
  type HlPost,
} from './hlTransport.js'
import { createHlUniverse, type HlAsset } from './hlUniverse.js'

export interface HyperliquidAdapterOptions {
  /** `https://api.hyperliquid.xyz` or `https://api.hyperliquid-testnet.xyz` */
  readonly baseUrl: string
  /** phantom-agent source `a` (mainnet) or `b` (testnet) */
  readonly isMainnet: boolean
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof globalThis.fetch | undefined
  /** time source for nonces and the meta cache @default systemClock */
  readonly clock?: Clock | undefined
  /** ms per HTTP request @default 10_000 */
  readonly timeout?: number | undefined
  /**
   * ms an order action stays valid (`expiresAfter`): a submission whose
   * answer was lost can only have landed within this window @default 60_000
   */
  readonly orderActionTtlMs?: number | undefined
  /**
   * Builder fee on every order, in tenths of a basis point (contract: 15);
   * doubled on strategy legs paired with a Lighter venue
   */
  readonly builder?:
    | { readonly address: string; readonly feeTenthsBp: number }
    | undefined
  /** ms the market universe is cached @default 60_000 */
  readonly metaTtlMs?: number | undefined
  /**
   * ms a read of every mark and funding rate serves quotes for, shared by
   * every caller of this adapter @default 5_000 (weight 20 per dex: 240
   * a minute, a fifth of the budget; the stream serves when it flows)
   */
  readonly marketMaxAgeMs?: number | undefined
  /**
   * Hyperliquid's per-IP request budget, shared by every adapter and
   * binder of this process @default a budget of its own at half the limits
   */
  readonly budget?: RequestBudget | undefined
  /**
   * Marks, funding and impact prices streamed over the WebSocket: the
   * primary source of quotes; REST serves when it is missing or quiet
   */
  readonly marketStream?: MarketStream | HlStream | undefined
  /** ms a streamed value stays usable @default 3_000 */
  readonly streamMaxAgeMs?: number | undefined
  /**
   * Nonces shared by every process trading with one agent key (e.g. a
   * database counter), so they never repeat across restarts or workers.
   * @default a per-adapter monotonic millisecond clock
   */
  readonly nonceSource?:
    | ((signer: string, nowMs: number) => Promise<number>)
    | undefined
  /**
   * The venue settles funding at every multiple of this: a simulator's
   * `--funding-interval` (Hyperliquid itself settles hourly). Other than
   * the hour, funding is read from `userFunding` only, since the
   * positions' cumFunding between two reads may span several settlements.
   * @default 3_600_000
   */
  readonly fundingIntervalMs?: number | undefined
}

const TIF: Record<VenueOrderRequest['timeInForce'], HlTif> = {
  ioc: 'Ioc',
  gtc: 'Gtc',
  post_only: 'Alo',
}

/** Hyperliquid returns at most this many `userFunding` rows per call. */
const FUNDING_PAGE = 500
const FUNDING_MAX_PAGES = 20
/** ms one userFunding read from a cursor serves every market's tasks */
const FUNDING_SHARED_MS = 5_000
/**
 * How long past an order action's `expiresAfter`, on Hyperliquid's clock,
 * the action may still be missing from `orderStatus`. The L1 refuses an
 * action executed after its `expiresAfter` (hyperliquid-python-sdk
 * `Exchange.set_expires_after`; /work/shared/venues/hyperliquid.md), and
 * executes what it takes in the block it lands in, one about every 70 ms
 * (HyperBFT; Alchemy's HyperCore "Blocks and finality"); the info API
 * answers from a node's state, which trails consensus by blocks, not
 * seconds. 5 s leaves a node far more than that.
 */
const HL_VISIBILITY_LAG_MS = 5_000

/**
 * The Hyperliquid (`hl`) venue adapter over the public REST API: reads via
 * `POST /info`, orders and cancels as agent-signed L1 actions via
 * `POST /exchange`. Main-dex perps only.
 * @param options base URL, network, fetch, clock and timeout
 * @returns the adapter for venue `hl`
 * @example createHyperliquidAdapter({ baseUrl: 'https://api.hyperliquid.xyz', isMainnet: true })
 */
export function createHyperliquidAdapter(
  options: HyperliquidAdapterOptions,
): VenueAdapter {
  const clock = options.clock ?? systemClock
  const fundingInterval = options.fundingIntervalMs ?? HOUR_MS
  /** the settlement a payment at `t` belongs to (the hour on Hyperliquid) */
  const settlementOf = (t: number) =>
    Math.floor(t / fundingInterval) * fundingInterval
  const nextSettlement = (t: number) => settlementOf(t) + fundingInterval
  const ttl = options.metaTtlMs ?? 60_000
  const budget = options.budget ?? createHlBudget({ clock })
  const post: HlPost = createHlTransport({
    baseUrl: options.baseUrl,
    fetchFn: options.fetchFn ?? globalThis.fetch,
    timeout: options.timeout ?? 10_000,
    budget,
  })
  const marketMaxAge = options.marketMaxAgeMs ?? 5_000
  const streamMaxAge = options.streamMaxAgeMs ?? 3_000
  const nonces = createNonceClock(clock)
  const listing = createHlUniverse(post, clock, ttl)
  const actionTtl = options.orderActionTtlMs ?? 60_000
  // userFunding answers every coin of a user: one read from a cursor
  // serves each market's tasks of that user (weight 20 + per 20 rows)
  const fundingRows = createSharedRead<string, HlFundingRow[], RequestPriority>(
    clock,
    async (key, priority) => {
      const [user, from] = key.split('|') as [string, string]
      let startTime = Number(from)
      const rows: HlFundingRow[] = []
      for (let page = 0; page < FUNDING_MAX_PAGES; page++) {
        const raw = await post(
          '/info',
          { type: 'userFunding', user, startTime },
          'read',
          priority ?? 'history',
        )
        if (!Array.isArray(raw)) throw badRead('userFunding', raw)
        let last = startTime
        for (const row of raw) {
          const p = parseFundingRow(row)
          last = Math.max(last, p.time)
          rows.push(p)
        }
        if (raw.length < FUNDING_PAGE) break
        startTime = last + 1
      }
      return rows
    },
    // a read per user and hour is asked again only in that moment
    { forgetAfterMs: 60_000 },
  )
  // funding read off the positions reads' cumulative funding
  const cum = createHlCumFunding()
  // and the collateral off the same reads: a balances read costs nothing
  const balances = createHeldBalances(clock)
  /** a main-dex state just read (or streamed) at `at` */
  const observeState = (user: string, raw: unknown, at: number) => {
    cum.observe(user, stateTime(raw, at), raw)
    const balance = parseHlBalance(raw, at)
    if (balance) balances.hold(user, balance)
  }
  // a read of a user's state to see a settlement, shared by its markets
  const settledStates = createSharedRead<string, void, RequestPriority>(
    clock,
    async (user, priority) => {
      const raw = await post(
        '/info',
        { type: 'clearinghouseState', user },
        'read',
        priority,
      )
      observeState(user, raw, clock.now())
    },
    { forgetAfterMs: 60_000 },
  )
  const stream = options.marketStream
  // the user stream serves main-dex accounts; a builder dex has its own
  const userStream =
    stream !== undefined && 'watchUser' in stream ? stream : undefined
  const quarantine = createStreamQuarantine(clock)
  const streamedState = (user: string) => {
    if (!userStream || listing.usedBuilderDexes().length > 0) return undefined
    // just after our own order the pushed state may predate its fill
    if (!quarantine.trusted(user)) return undefined
    const s = userStream.userState(user)
    return s && clock.now() - s.at <= streamMaxAge ? s : undefined
  }

  /** the asset of `market`; a write to an unlisted market is refused */
  async function assetFor(market: string): Promise<HlAsset> {
    const a = await listing.asset(market)
    if (!a) throw new VenueRejectedError(`unknown market ${market}`)
    return a
  }

  async function signedPost(
    cred: VenueCredential,
    action: object,
    /** Unix ms after which the venue must refuse the action */
    validUntil?: number,
  ): Promise<unknown> {
    const key = agentKey(cred)
    const nonce = options.nonceSource
      ? await options.nonceSource(
          localAccount(key).address.toLowerCase(),
          clock.now(),
        )
      : nonces.next()
    const expiresAfter = validUntil
    const signature = await signL1Action({
      privateKey: key,
      action,
      vaultAddress: null,
      nonce,
      isMainnet: options.isMainnet,
      expiresAfter,
    })
    return post(
      '/exchange',
      {
        action,
        nonce,
        signature,
        vaultAddress: null,
        ...(expiresAfter === undefined ? {} : { expiresAfter }),
      },
      'write',
      undefined,
      expiresAfter === undefined
        ? undefined
        : () => clock.now() >= expiresAfter,
    )
  }

  /**
   * The payment since `since` from the states around the one settlement
   * after it (the state after it read now when none is held); undefined
   * when they cannot tell: more than one settlement, a builder-dex market,
   * no state before it (a restart), a size change across it.
   */
  async function fundingFromStates(
    user: string,
    market: string,
    since: number,
    read: ReadOptions | undefined,
  ): Promise<FundingPayment[] | undefined> {
    if (fundingInterval !== HOUR_MS) return undefined
    const now = clock.now()
    const settled = hourStart(now)
    // the hour's settlement may be landing: the venue's record tells
    if (now - settled < HL_SETTLED_AFTER_MS) return undefined
    if (since > settled) return []
    if (since <= settled - HOUR_MS || market.includes(':')) return undefined
    if (cum.payment(user, market, settled) === undefined) {
      if (cum.settledStateHeld(user, settled)) return undefined
      // a positions read in effect (weight 2), shared by the user's
      // markets: it books them all, so it goes as routine monitoring
      await settledStates.get(user, 0, read?.priority ?? 'routine')
    }
    const p = cum.payment(user, market, settled)
    return p === undefined ? undefined : p === null ? [] : [p]
  }

  const lookedUpFills = createHlUserFills(clock)
  /** The order by client order id, with its fills' average price. */
  async function lookUpOrder(
    cred: VenueCredential,
    _market: string,
    clientOrderId: string,
    options?: LookupOptions,
  ): Promise<VenueOrder | null> {
    const user = owner(cred)
    const priority = options?.priority ?? 'urgent'
    const raw = await post(
      '/info',
      { type: 'orderStatus', user, oid: clientOrderId },
      'read',
      priority,
    )
    const found = parseOrderStatus(raw, clientOrderId)
    if (!found || dec(found.order.filledBase).isZero()) {
      return found?.order ?? null
    }
    const fills = await lookedUpFills(
      post,
      user,
      { oid: found.oid, startTime: found.timestamp },
      found.order.filledBase,
      priority,
    )
    if (!fills) return { ...found.order, averagePrice: null }
    return {
      ...found.order,
      averagePrice: fills.averagePrice,
      ...(fills.feeUsd === null ? {} : { feeUsd: fills.feeUsd }),
    }
  }

  return Object.freeze({
    venue: 'hl' as const,

    // what each order carries: tenths of a basis point of its notional
    builderFeeRate: (pairedWithLighter: boolean): string =>
      options.builder
        ? decString(
            dec(options.builder.feeTenthsBp)
              .mul(pairedWithLighter ? 2 : 1)
              .div(100_000),
          )
        : '0',

    async rules(symbol: string): Promise<MarketRules | undefined> {
      const a = await listing.asset(symbol)
      if (!a) return undefined
      const sizeStep = decString(dec(10).pow(-a.szDecimals))
      return {
        venue: 'hl',
        symbol: a.name,
        tickSize: decString(dec(10).pow(-Math.max(6 - a.szDecimals, 0))),
        maxSigFigs: 5,
        sizeStep,
        minNotionalUsd: '10',
        minBase: sizeStep,
        maxLeverage: a.maxLeverage,
      }
    },

    symbols: () => listing.mainSymbols(),

    async quote(symbol: string, read?: QuoteOptions): Promise<MarketQuote> {
      const now = clock.now()
      const s = freshFromStream(options.marketStream, symbol, now, streamMaxAge)
      if (s?.fundingRate !== undefined) {
        return quoteFromStream(
          'hl',
          symbol,
          s,
          s.fundingRate,
          nextSettlement(s.at),
        )
      }
      const hit = await listing.ctx(symbol, marketMaxAge, read?.priority)
      if (!hit) {
        throw new VenueUnavailableError(`hyperliquid: no market ${symbol}`)
      }
      const { ctx, at } = hit
      return {
        at,
        // Hyperliquid settles funding on the hour
        nextFundingAt: nextSettlement(at),
        venue: 'hl',
        symbol,
        mark: ctx.markPx,
        bid: ctx.impactPxs?.[0] ?? ctx.markPx,
        ask: ctx.impactPxs?.[1] ?? ctx.markPx,
        fundingRateHourly: ctx.funding,
      }
    },

    async place(
      cred: VenueCredential,
      order: VenueOrderRequest,
    ): Promise<VenueOrder> {
      const a = await assetFor(order.market)
      const price = wireDecimal(order.price)
      const size = wireDecimal(order.size)
      if (price === null || !isValidHlPrice(price, a.szDecimals)) {
        throw new VenueRejectedError(
          `price ${order.price} is not on the ${a.name} tick`,
        )
      }
      if (size === null || dec(size).decimalPlaces() > a.szDecimals) {
        throw new VenueRejectedError(
          `size ${order.size} is not a multiple of the ${a.name} size step`,
        )
      }
      let action: object
      try {
        action = orderAction(
          [
            {
              asset: a.asset,
              isBuy: order.side === 'long',
              price,
              size,
              reduceOnly: order.reduceOnly,
              tif: TIF[order.timeInForce],
              cloid: order.clientOrderId,
            },
          ],
          options.builder && {
            address: options.builder.address,
            feeTenthsBp:
              options.builder.feeTenthsBp * (order.pairedWithLighter ? 2 : 1),
          },
        )
      } catch (err) {
        throw new VenueRejectedError(
          err instanceof Error ? err.message : String(err),
          { cause: err },
        )
      }
      cum.traded(owner(cred), a.name, clock.now())
      // an order lost in transit cannot land after expiresAfter
      try {
        const raw = await signedPost(
          cred,
          action,
          sendDeadline(order, clock.now(), actionTtl),
        )
        return placeResult(raw, order, size)
      } finally {
        quarantine.wrote(owner(cred))
      }
    },

    async cancel(
      cred: VenueCredential,
      market: string,
      clientOrderId: string,
    ): Promise<void> {
      const a = await assetFor(market)
      let action: object
      try {
        action = cancelByCloidAction([{ asset: a.asset, cloid: clientOrderId }])
      } catch (err) {
        throw new VenueRejectedError(
          err instanceof Error ? err.message : String(err),
          { cause: err },
        )
      }
      const raw = await signedPost(cred, action)
      const status = singleStatus(raw, 'cancel')
      if (status === 'success') return
      if (isObj(status) && typeof status.error === 'string') {
        if (/already canceled|filled|never placed/i.test(status.error)) return
        throw new VenueRejectedError(status.error)
      }
      throw new UncertainSubmissionError(
        `hyperliquid cancel: unexpected status ${JSON.stringify(status)}`,
      )
    },

    order: lookUpOrder,
    orderWithVenueTime: orderWithVenueTime(lookUpOrder),
    visibilityLagMs: HL_VISIBILITY_LAG_MS,

    async orderFees(
      cred: VenueCredential,
      _market: string,
      order: VenueFilledOrder,
    ): Promise<string | null> {
      const oid = Number(order.venueOrderId)
      if (order.venueOrderId === null || !Number.isSafeInteger(oid)) return null
      const fills = await hlOrderFills(
        post,
        owner(cred),
        { oid, startTime: order.since },
        order.filledBase,
        // bookkeeping after the fact, as funding reads are
        'history',
      )
      return fills?.feeUsd ?? null
    },

    streamAccounts(accounts: readonly StreamedAccount[]): void {
      if (!userStream) return
      // a user's state is public: no credential needed
      const wanted = new Set(
        accounts
          .slice(0, HL_STREAM_USERS_PER_IP)
          .map((a) => a.owner.toLowerCase()),
      )
      for (const u of userStream.watchedUsers()) {
        if (!wanted.has(u)) userStream.unwatchUser(u)
      }
      for (const u of wanted) userStream.watchUser(u)
    },

    cancelAllSwitch: HL_CANCEL_ALL_SWITCH,

    // one switch for the account: the markets do not matter
    armCancelAll: (
      cred: VenueCredential,
      _markets: readonly string[],
      at: number | null,
    ) => armHlCancelAll(signedPost, cred, at, clock.now()),

    accountStreamed: (user: string) =>
      streamedState(user.toLowerCase()) !== undefined,

    accountReadsPerMinute(): number | undefined {
      // a read is one clearinghouseState per dex, against the per-IP weight
      const perRead =
        hlInfoWeight('clearinghouseState') *
        (1 + listing.usedBuilderDexes().length)
      const weight = budget.perMinute('weight', 'routine')
      return weight === undefined ? undefined : weight / perRead
    },

    async positions(
      cred: VenueCredential,
      read?: ReadOptions,
    ): Promise<VenuePosition[]> {
      const user = owner(cred)
      // a watched user's state as the stream pushed it: no request
      const streamed = read?.fresh ? undefined : streamedState(user)
      if (streamed) {
        observeState(user, streamed.state, streamed.at)
        return parsePositions(streamed.state)
      }
      // each dex keeps its own clearinghouse: the main one, and those of
      // the builder dexes whose markets this process trades (the worker
      // reads a task's markets before its positions)
      const dexes = ['', ...listing.usedBuilderDexes()]
      const states = await Promise.all(
        dexes.map((dex) =>
          post(
            '/info',
            dex === ''
              ? { type: 'clearinghouseState', user }
              : { type: 'clearinghouseState', user, dex },
            'read',
            read?.priority,
          ),
        ),
      )
      observeState(user, states[0], clock.now())
      return states.flatMap(parsePositions)
    },

    async balances(
      cred: VenueCredential,
      read?: ReadOptions,
    ): Promise<VenueBalance> {
      const user = owner(cred)
      const held = balances.fresh(user, read?.maxAgeMs ?? 0)
      if (held) return held
      const streamed = streamedState(user)
      const sentAt = clock.now()
      // the main dex's state: the positions read's own request (weight 2)
      const raw = streamed
        ? streamed.state
        : await post(
            '/info',
            { type: 'clearinghouseState', user },
            'read',
            read?.priority,
          )
      const at = streamed ? streamed.at : sentAt
      observeState(user, raw, at)
      const balance = parseHlBalance(raw, at)
      if (!balance) throw badRead('clearinghouseState', raw)
      return balance
    },

    async funding(
      cred: VenueCredential,
      market: string,
      since: string,
      read?: ReadOptions,
    ): Promise<FundingPayment[]> {
      const startTime = Date.parse(since)
      if (!Number.isFinite(startTime)) {
        throw new RangeError(`since must be an ISO time: ${since}`)
      }
      const user = owner(cred)
      const fromStates = await fundingFromStates(user, market, startTime, read)
      if (fromStates !== undefined) return fromStates
      const { key } = fundingReadKey(user, startTime)
      const rows = (
        await fundingRows.get(key, FUNDING_SHARED_MS, read?.priority)
      ).value
      return (
        rows
          // a payment is dated by the hour it settles: the same time
          // whether a state change or this history showed it
          .map((p) => ({ ...p, time: settlementOf(p.time) }))
          .filter((p) => p.coin === market && p.time >= startTime)
          .map((p) => ({
            market,
            time: new Date(p.time).toISOString(),
            amountUsd: p.usdc,
            rate: p.rate,
            positionSize: p.szi,
          }))
      )
    },
  })
}

// ---------------------------------------------------------------- helpers

/**
 * The order action's `expiresAfter`: the caller's deadline, at most
 * `ttl` from now; refused (nothing sent) when it has already passed.
 */
function sendDeadline(
  order: VenueOrderRequest,
  now: number,
  ttl: number,
): number {
  const deadline = Math.min(now + ttl, order.validUntil ?? Infinity)
  if (deadline <= now) {
    throw new VenueUnavailableError(
      `hyperliquid: the send window of ${order.clientOrderId} closed before it was sent`,
    )
  }
  return deadline
}

function badRead(what: string, raw: unknown): VenueUnavailableError {
  return unexpectedAnswer('hyperliquid', what, raw)
}

function wireDecimal(v: string): string | null {
  const d = decField(v)
  return d !== null && dec(d).isPositive() && !dec(d).isZero() ? d : null
}

function agentKey(cred: VenueCredential): Hex {
  const key = cred.secret
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new VenueRejectedError('no valid Hyperliquid agent key for account')
  }
  return key as Hex
}

function owner(cred: VenueCredential): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(cred.owner)) {
    throw new RangeError(`owner is not an address: ${cred.owner}`)
  }
  return cred.owner
}

/** The one per-item status of an `order` or `cancel` answer. */
function singleStatus(raw: unknown, type: 'order' | 'cancel'): unknown {
  const response = hlExchangeResponse(raw)
  const data = isObj(response) && response.type === type ? response.data : null
  const statuses = isObj(data) ? data.statuses : null
  if (!Array.isArray(statuses) || statuses.length !== 1) {
    throw new UncertainSubmissionError(
      `hyperliquid ${type}: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
    )
  }
  return statuses[0]
}

function placeResult(
  raw: unknown,
  order: VenueOrderRequest,
  size: string,
): VenueOrder {
  const status = singleStatus(raw, 'order')
  const base = {
    clientOrderId: order.clientOrderId,
    size,
    reason: null,
  }
  const bad = () =>
    new UncertainSubmissionError(
      `hyperliquid order: unexpected status ${JSON.stringify(status)}`,
    )
  if (status === 'waitingForFill' || status === 'waitingForTrigger') {
    return {
      ...base,
      venueOrderId: null,
      state: 'open',
      filledBase: '0',
      averagePrice: null,
      venueStatus: status,
    }
  }
  if (!isObj(status)) throw bad()
  if (typeof status.error === 'string') {
    throw new VenueRejectedError(status.error)
  }
  if (isObj(status.resting)) {
    const oid = status.resting.oid
    return {
      ...base,
      venueOrderId: typeof oid === 'number' ? String(oid) : null,
      state: 'open',
      filledBase: '0',
      averagePrice: null,
      venueStatus: 'resting',
    }
  }
  if (isObj(status.filled)) {
    const f = status.filled
    const totalSz = decField(f.totalSz)
    const avgPx = decField(f.avgPx)
    if (totalSz === null || avgPx === null) throw bad()
    const complete = dec(totalSz).gte(dec(size))
    let state: VenueOrderState = 'filled'
    let reason: string | null = null
    if (!complete) {
      if (order.timeInForce === 'ioc') {
        state = 'cancelled'
        reason = 'IOC remainder cancelled'
      } else {
        state = 'partially_filled'
      }
    }
    return {
      ...base,
      venueOrderId: typeof f.oid === 'number' ? String(f.oid) : null,
      state,
      filledBase: totalSz,
      averagePrice: avgPx,
      venueStatus: 'filled',
      reason,
    }
  }
  throw bad()
}

/** Hyperliquid's order status word in port terms. */
function hlOrderState(status: string, filled: boolean): VenueOrderState {
  if (status === 'open' || status === 'triggered') {
    return filled ? 'partially_filled' : 'open'
  }
  if (status === 'filled') return 'filled'
  if (status === 'rejected' || status.endsWith('Rejected')) return 'rejected'
  if (status === 'canceled' || status.endsWith('Canceled')) return 'cancelled'
  if (status === 'scheduledCancel') return 'cancelled'
  return 'rejected'
}

function parseOrderStatus(
  raw: unknown,
  clientOrderId: string,
): { order: VenueOrder; oid: number; timestamp: number } | null {
  if (isObj(raw) && raw.status === 'unknownOid') return null
  if (!isObj(raw) || raw.status !== 'order' || !isObj(raw.order)) {
    throw badRead('orderStatus', raw)
  }
  const wrap = raw.order
  const o = wrap.order
  const status = wrap.status
  if (!isObj(o) || typeof status !== 'string') {
    throw badRead('orderStatus', raw)
  }
  const origSz = decField(o.origSz)
  const sz = decField(o.sz)
  if (origSz === null || sz === null) throw badRead('orderStatus', raw)
  const filledD = dec(origSz).minus(dec(sz))
  const filledBase = decString(filledD.isNegative() ? 0 : filledD)
  const state = hlOrderState(status, !filledD.lte(0))
  if (!Number.isSafeInteger(o.oid) || !Number.isSafeInteger(o.timestamp)) {
    throw badRead('orderStatus', raw)
  }
  return {
    oid: o.oid as number,
    timestamp: o.timestamp as number,
    order: {
      clientOrderId,
      venueOrderId: String(o.oid),
      state,
      size: origSz,
      filledBase,
      averagePrice: null,
      venueStatus: status,
      reason: state === 'rejected' || state === 'cancelled' ? status : null,
    },
  }
}

function parsePositions(raw: unknown): VenuePosition[] {
  if (!isObj(raw) || !Array.isArray(raw.assetPositions)) {
    throw badRead('clearinghouseState', raw)
  }
  const out: VenuePosition[] = []
  for (const ap of raw.assetPositions) {
    const p = isObj(ap) ? ap.position : null
    if (!isObj(p) || typeof p.coin !== 'string' || !isObj(p.leverage)) {
      throw badRead('clearinghouseState', raw)
    }
    const szi = decField(p.szi)
    const entry = decField(p.entryPx)
    const value = decField(p.positionValue)
    const lev = decField(p.leverage.value)
    const mode = p.leverage.type
    if (
      szi === null ||
      entry === null ||
      value === null ||
      lev === null ||
      (mode !== 'cross' && mode !== 'isolated')
    ) {
      throw badRead('clearinghouseState', raw)
    }
    if (dec(szi).isZero()) continue
    const liq = p.liquidationPx == null ? null : decField(p.liquidationPx)
    out.push({
      market: p.coin,
      size: szi,
      entryPrice: entry,
      markPrice: decString(dec(value).div(dec(szi).abs())),
      leverage: lev,
      marginMode: mode,
      liquidationPrice: liq,
    })
  }
  return out
}

/** One userFunding row: a settlement of one coin. */
interface HlFundingRow {
  readonly time: number
  readonly coin: string
  readonly usdc: string
  readonly rate: string
  readonly szi: string
}

/** The venue's time of a clearinghouseState, else when it was read. */
function stateTime(raw: unknown, readAt: number): number {
  return isObj(raw) && Number.isSafeInteger(raw.time)
    ? (raw.time as number)
    : readAt
}

function parseFundingRow(row: unknown): HlFundingRow {
  const d = isObj(row) ? row.delta : null
  if (!isObj(row) || !Number.isSafeInteger(row.time) || !isObj(d)) {
    throw badRead('userFunding', row)
  }
  const usdc = decField(d.usdc)
  const rate = decField(d.fundingRate)
  const szi = decField(d.szi)
  if (
    typeof d.coin !== 'string' ||
    usdc === null ||
    rate === null ||
    szi === null
  ) {
    throw badRead('userFunding', row)
  }
  return { time: row.time as number, coin: d.coin, usdc, rate, szi }
}
