import {
  type Clock,
  createSharedRead,
  dec,
  decString,
  type FundingPayment,
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
  type VenuePosition,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { getAddress, type Hex } from 'viem'
import { localAccount } from '../../signing/localAccount.js'
import { fundingReadKey } from '../../wire/fundingReadKey.js'
import { createHeldBalances } from '../../wire/heldBalances.js'
import {
  freshFromStream,
  type MarketStream,
  quoteFromStream,
} from '../../wire/marketStream.js'
import type { PublishedLimit } from '../../wire/requestCharge.js'
import { createStreamQuarantine } from '../../wire/streamQuarantine.js'
import { orderWithVenueTime } from '../../wire/venueClock.js'
import type { CallKind } from '../../wire/venueHttp.js'
import { ASTER_LIMITS } from '../limits/asterLimits.js'
import { asterLimitsFromExchangeInfo } from '../limits/asterRateLimitEntries.js'
import { asterRequestWeight } from '../limits/asterRequestWeight.js'
import {
  type AsterFilters,
  parseAsterFilters,
} from '../precision/asterFilters.js'
import {
  ASTER_AGENT_CHAIN_ID,
  signAsterMessage,
} from '../signing/asterMessage.js'
import {
  type AsterNonceSource,
  createAsterNonces,
} from '../signing/asterNonces.js'
import { type AsterParam, formEncode } from '../signing/formEncode.js'
import type { AsterListenKeys } from '../stream/asterUserStream.js'
import {
  type AsterUserStreams,
  type AsterUserStreamsOptions,
  createAsterUserStreams,
} from '../stream/createAsterUserStreams.js'
import {
  ASTER_CANCEL_ALL_SWITCH,
  armAsterCancelAll,
} from './armAsterCancelAll.js'
import { ASTER_ACCOUNT_PATH, parseAsterBalance } from './asterBalance.js'
import { asterClientOrderId } from './asterClientOrderId.js'
import { parseAsterOrderFees } from './asterOrderFees.js'
import { AsterRejectedError } from './asterRejectedError.js'
import { createAsterStreamedPositions } from './asterStreamedPositions.js'
import {
  type AsterSend,
  createAsterBudget,
  createAsterTransport,
} from './asterTransport.js'
import {
  badRead,
  decField,
  isObj,
  parseAsterOrder,
  parseAsterPosition,
  parseIncomeRow,
} from './asterWire.js'

/** Builder fee attached to every order (approved in the agent approval). */
export interface AsterBuilderFee {
  readonly address: string
  /**
   * decimal fraction, e.g. `'0.00015'` (0.015%); doubled on strategy legs
   * paired with a Lighter venue (`pairedWithLighter`)
   */
  readonly feeRate: string
}

export interface AsterAdapterOptions {
  /** `https://fapi.asterdex.com` or `https://fapi.asterdex-testnet.com` */
  readonly baseUrl: string
  /** sign for chain 714 instead of 1666 @default false */
  readonly testnet?: boolean | undefined
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof globalThis.fetch | undefined
  /** time for nonces, caches and back-off @default systemClock */
  readonly clock?: Clock | undefined
  /**
   * Nonces shared by every process trading with one agent key (e.g. a
   * store counter: `(signer, nowUs) => counters.next(`aster-nonce|${signer}`, nowUs)`).
   * @default a per-adapter monotonic microsecond clock per signer
   */
  readonly nonceSource?: AsterNonceSource | undefined
  /** sent as `builder` + `feeRate` on every order */
  readonly builder?: AsterBuilderFee | undefined
  /** ms per HTTP request @default 10_000 */
  readonly timeout?: number | undefined
  /** ms exchangeInfo and fundingInfo are cached @default 60_000 */
  readonly infoTtlMs?: number | undefined
  /**
   * ms one read of every symbol's mark, funding rate and best bid/ask
   * serves quotes for, shared by every caller @default 2_000
   */
  readonly marketMaxAgeMs?: number | undefined
  /**
   * Aster's per-IP request budget, shared by every adapter and binder of
   * this process @default one of its own at half the limits
   */
  readonly budget?: RequestBudget | undefined
  /**
   * `!markPrice@arr@1s` and `!bookTicker` over the WebSocket: the primary
   * source of quotes; REST serves when they are missing or quiet
   */
  readonly marketStream?: MarketStream | undefined
  /** ms a streamed value stays usable @default 3_000 */
  readonly streamMaxAgeMs?: number | undefined
  /**
   * User data streams (listenKey): the positions of the accounts
   * `streamAccounts` names come from the stream and the last REST
   * snapshot, with no request per read. Absent: off, every read is REST.
   */
  readonly userStreams?: AsterAdapterUserStreams | undefined
  /**
   * Reported as `maxLeverage`: Aster publishes brackets only through the
   * signed `leverageBracket`, so rules() cannot read them. @default 20
   */
  readonly maxLeverage?: number | undefined
}

/** How the adapter streams accounts' positions. */
export interface AsterAdapterUserStreams
  extends Omit<
    AsterUserStreamsOptions,
    'listenKeys' | 'onFollow' | 'onDrop' | 'onConnected' | 'onEvent'
  > {
  /**
   * ms a streamed account's REST snapshot (liquidation prices) serves
   * before it is read again, events or not: a cross position's
   * liquidation price drifts with the other positions' PnL @default 120_000
   */
  readonly refreshMs?: number | undefined
}

/** The Aster adapter, with the user streams it may hold open. */
export interface AsterAdapter extends VenueAdapter {
  /** Ends the user streams (their sockets). */
  closeUserStreams(): void
}

/** Aster accepts a nonce (µs) within this many ms of its own clock. */
const NONCE_WINDOW_MS = 10_000
/**
 * How long past a request's nonce window, on Aster's clock, an order it
 * took may still be missing from `GET /fapi/v3/order` (-2013). Aster
 * checks the nonce against its clock as the request arrives (futures v3
 * doc "V3 Nonce Mechanism": within 10 s of server time;
 * /work/shared/venues/aster.md); like the Binance USDⓈ-M API it copies,
 * the order then goes to the matching engine, whose queue under load
 * (Binance's 503 "execution status unknown", its 408 gateway timeouts)
 * runs to seconds. 10 s covers that queue and the read behind it.
 */
const ASTER_VISIBILITY_LAG_MS = 10_000
const TIF: Record<VenueOrderRequest['timeInForce'], string> = {
  ioc: 'IOC',
  gtc: 'GTC',
  post_only: 'GTX',
}
const LISTEN_KEY = '/fapi/v3/listenKey'
const INCOME_PAGE = 1000
const INCOME_MAX_PAGES = 20
/** ms one income read from a cursor serves every market's tasks */
const INCOME_SHARED_MS = 5_000
/** a read per account and hour is asked again only in that moment */
const FORGET_FUNDING_READS = { forgetAfterMs: 60_000 }

type AsterIncomeRow = ReturnType<typeof parseIncomeRow>
/** Aster's fallback interval when `fundingInfo` does not list a symbol */
const DEFAULT_FUNDING_HOURS = 8

/**
 * The Aster (`aster`) venue adapter over the Futures V3 REST API
 * (`/fapi/v3`). Public reads: exchangeInfo, premiumIndex, fundingInfo,
 * ticker/bookTicker. Every TRADE / USER_DATA call is a form string with
 * `nonce`, `user`, `signer` appended, signed by the agent key as the
 * `Message` EIP-712 (chain 1666, testnet 714), sent byte for byte as
 * signed. One-way position mode is required (checked, then cached).
 * @param options base URL, network, fetch, clock, nonces, builder fee
 * @returns the adapter for venue `aster`
 * @example createAsterAdapter({ baseUrl: 'https://fapi.asterdex.com' })
 */
export function createAsterAdapter(options: AsterAdapterOptions): AsterAdapter {
  const clock = options.clock ?? systemClock
  const ttl = options.infoTtlMs ?? 60_000
  const chainId = options.testnet
    ? ASTER_AGENT_CHAIN_ID.testnet
    : ASTER_AGENT_CHAIN_ID.mainnet
  const budget = options.budget ?? createAsterBudget({ clock })
  // the limits exchangeInfo publishes replace the documented ones
  let limits: readonly PublishedLimit[] = ASTER_LIMITS
  const send: AsterSend = createAsterTransport({
    baseUrl: options.baseUrl,
    fetchFn: options.fetchFn ?? globalThis.fetch,
    timeout: options.timeout ?? 10_000,
    budget,
    limits: () => limits,
  })
  const marketMaxAge = options.marketMaxAgeMs ?? 2_000
  // every symbol in one request each: one read serves every task
  const marks = createSharedRead<undefined, unknown, RequestPriority>(
    clock,
    (_, priority) => publicGet('/fapi/v3/premiumIndex', [], priority),
  )
  const books = createSharedRead<undefined, unknown, RequestPriority>(
    clock,
    (_, priority) => publicGet('/fapi/v3/ticker/bookTicker', [], priority),
  )
  const fundingIntervals = createSharedRead<
    undefined,
    unknown,
    RequestPriority
  >(clock, (_, priority) => publicGet('/fapi/v3/fundingInfo', [], priority))
  const nonces = createAsterNonces(clock)
  const builder = options.builder && {
    address: getAddress(options.builder.address),
    feeRate: requireRate(options.builder.feeRate),
  }
  let info: { at: number; symbols: Map<string, AsterFilters> } | undefined
  // income (weight 30) answers every symbol without one: a read from a
  // cursor serves each market's tasks of the account
  const incomeRows = createSharedRead<
    string,
    AsterIncomeRow[],
    { cred: VenueCredential; priority: RequestPriority | undefined }
  >(
    clock,
    async (key, ctx) => {
      if (!ctx) throw new Error(`no credential for ${key}`)
      const { cred } = ctx
      let startTime = Number(key.slice(key.indexOf('|') + 1))
      const rows: AsterIncomeRow[] = []
      const seen = new Set<string>()
      for (let page = 0; page < INCOME_MAX_PAGES; page++) {
        const raw = await signed(
          cred,
          'GET',
          '/fapi/v3/income',
          [
            ['incomeType', 'FUNDING_FEE'],
            ['startTime', String(startTime)],
            ['limit', String(INCOME_PAGE)],
          ],
          'read',
          undefined,
          ctx.priority ?? 'history',
        )
        if (!Array.isArray(raw)) throw badRead('income', raw)
        let last = startTime
        for (const row of raw) {
          const r = parseIncomeRow(row)
          last = Math.max(last, r.time)
          // a page may end inside one settlement's rows: the next starts
          // at its time again, and what was read is not counted twice
          const id = `${r.time}|${r.symbol}`
          if (seen.has(id)) continue
          seen.add(id)
          rows.push(r)
        }
        if (raw.length < INCOME_PAGE) break
        startTime = last
      }
      return rows
    },
    FORGET_FUNDING_READS,
  )

  /** A public read; a refusal (e.g. -1121) means the data is unavailable. */
  /** Market data: one read serves every quote, so it goes before routine reads. */
  async function publicGet(
    path: string,
    params: AsterParam[] = [],
    priority: RequestPriority = 'urgent',
  ) {
    try {
      return await send({
        method: 'GET',
        path,
        params: formEncode(params),
        kind: 'read',
        priority,
      })
    } catch (err) {
      if (err instanceof VenueRejectedError) {
        throw new VenueUnavailableError(`aster ${path}: ${err.reason}`, {
          cause: err,
        })
      }
      throw err
    }
  }

  async function symbols(): Promise<Map<string, AsterFilters>> {
    if (info && clock.now() - info.at < ttl) return info.symbols
    const raw = await publicGet('/fapi/v3/exchangeInfo')
    if (!isObj(raw) || !Array.isArray(raw.symbols)) {
      throw badRead('exchangeInfo', raw)
    }
    const published = asterLimitsFromExchangeInfo(raw.rateLimits)
    if (published.length > 0) {
      limits = published
      budget.setLimits(published)
    }
    const map = new Map<string, AsterFilters>()
    for (const s of raw.symbols) {
      if (!isObj(s) || s.status !== 'TRADING') continue
      if (s.contractType !== 'PERPETUAL') continue
      const f = parseAsterFilters(s)
      if (f) map.set(f.symbol, f)
    }
    info = { at: clock.now(), symbols: map }
    return map
  }

  async function intervalHours(
    symbol: string,
    priority?: RequestPriority,
  ): Promise<number> {
    const raw = (await fundingIntervals.get(undefined, ttl, priority)).value
    const row = Array.isArray(raw)
      ? raw.find((r) => isObj(r) && r.symbol === symbol)
      : undefined
    const h = isObj(row) ? row.fundingIntervalHours : undefined
    return typeof h === 'number' && h > 0 ? h : DEFAULT_FUNDING_HOURS
  }

  async function signed(
    cred: VenueCredential,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    params: AsterParam[],
    kind: CallKind,
    /** Unix ms after which the venue must refuse the request */
    validUntil?: number,
    priority?: RequestPriority,
  ): Promise<unknown> {
    const key = agentKey(cred)
    const signer = localAccount(key).address
    const nonce = options.nonceSource
      ? await options.nonceSource(signer.toLowerCase(), clock.now() * 1000)
      : nonces.next(signer)
    if (!Number.isSafeInteger(nonce) || nonce <= 0) {
      throw new RangeError(`nonce source returned ${nonce}`)
    }
    // Aster refuses a nonce older than its window: that is the deadline
    if (
      validUntil !== undefined &&
      Math.floor(nonce / 1000) + NONCE_WINDOW_MS > validUntil
    ) {
      throw new VenueUnavailableError(
        `aster: too little of the send window is left for ${path}; nothing was sent`,
      )
    }
    const msg = formEncode([
      ...params,
      ['nonce', String(nonce)],
      ['user', owner(cred)],
      ['signer', signer],
    ])
    const signature = await signAsterMessage({ privateKey: key, msg, chainId })
    try {
      return await send({
        method,
        path,
        params: `${msg}&signature=${signature}`,
        kind,
        priority,
        account: owner(cred),
        // Aster refuses the nonce once its window has passed: a request
        // that waited that long for budget is not sent (it goes again,
        // signed anew), nor is its weight spent on a refusal
        pastDeadline: () =>
          clock.now() >= Math.floor(nonce / 1000) + NONCE_WINDOW_MS,
      })
    } catch (err) {
      // -4225 "Nonce Expired": this nonce is out of the venue's 10 s
      // window or used. Each of the adapter's requests is signed with a
      // nonce of its own and sent once, so the venue refused it whole:
      // not done, to go again signed anew (futures v3 "V3 Nonce
      // Mechanism"). A binder resending one wallet signature reads it
      // otherwise, so this is the adapter's rule, not the transport's.
      if (err instanceof AsterRejectedError && err.venueCode === -4225) {
        throw new VenueUnavailableError(
          `aster ${method} ${path}: not done: ${err.reason} (-4225)`,
          { cause: err },
        )
      }
      throw err
    }
  }

  async function query(
    cred: VenueCredential,
    market: string,
    id: string,
    options?: LookupOptions,
  ) {
    try {
      const raw = await signed(
        cred,
        'GET',
        '/fapi/v3/order',
        [
          ['symbol', market],
          ['origClientOrderId', asterClientOrderId(id)],
        ],
        'read',
        undefined,
        options?.priority ?? 'urgent',
      )
      const o = parseAsterOrder(raw, id)
      if (!o) throw badRead('order', raw)
      return o
    } catch (err) {
      if (err instanceof AsterRejectedError && err.venueCode === -2013) {
        return null
      }
      throw err
    }
  }

  async function restPositions(
    cred: VenueCredential,
    read: ReadOptions | undefined,
  ): Promise<VenuePosition[]> {
    // no positionSide/dual read (weight 30 an owner): the rows'
    // positionSide shows Hedge Mode, as the venue's refusal (-4061) does
    // for an order
    const raw = await signed(
      cred,
      'GET',
      '/fapi/v3/positionRisk',
      [],
      'read',
      undefined,
      read?.priority,
    )
    if (!Array.isArray(raw)) throw badRead('positionRisk', raw)
    if (raw.some((r) => isObj(r) && r.positionSide !== 'BOTH')) {
      throw hedgeMode()
    }
    return raw.map(parseAsterPosition).filter((p) => p !== null)
  }

  /** balances read, by owner: a caller allowing their age reads none */
  const balances = createHeldBalances(clock)
  async function restBalance(
    cred: VenueCredential,
    read: ReadOptions | undefined,
  ): Promise<VenueBalance> {
    const user = cred.owner.toLowerCase()
    const held = balances.fresh(user, read?.maxAgeMs ?? 0)
    if (held) return held
    const sentAt = clock.now()
    // positionRisk carries no balance: one more read (weight 5)
    const raw = await signed(
      cred,
      'GET',
      ASTER_ACCOUNT_PATH,
      [],
      'read',
      undefined,
      read?.priority,
    )
    const balance = parseAsterBalance(raw, sentAt)
    if (!balance) throw badRead('accountWithJoinMargin', raw)
    balances.hold(user, balance)
    return balance
  }

  // a lapsed key sends the account back to REST reads of weight 5 each:
  // the listenKey requests (weight 1) go before routine reads
  const listenKeys: AsterListenKeys = {
    async open(cred) {
      const raw = await signed(
        cred,
        'POST',
        LISTEN_KEY,
        [],
        'read',
        undefined,
        'urgent',
      )
      if (!isObj(raw) || typeof raw.listenKey !== 'string' || !raw.listenKey) {
        throw badRead('listenKey', raw)
      }
      return raw.listenKey
    },
    async keepAlive(cred) {
      await signed(cred, 'PUT', LISTEN_KEY, [], 'read', undefined, 'urgent')
    },
  }
  const quarantine = createStreamQuarantine(clock)
  const streamed = createAsterStreamedPositions({
    clock,
    refreshMs: options.userStreams?.refreshMs,
  })
  const userStreams: AsterUserStreams | undefined = options.userStreams
    ? createAsterUserStreams({
        ...options.userStreams,
        listenKeys,
        onFollow: (k) => streamed.follow(k),
        onDrop: (k) => streamed.forget(k),
        onConnected: (k) => streamed.connected(k),
        onEvent(k, ev) {
          if (ev.kind === 'account') streamed.update(k, ev.time, ev.positions)
        },
      })
    : undefined

  return Object.freeze({
    venue: 'aster' as const,

    // the `feeRate` each order carries, a fraction of its notional
    builderFeeRate: (pairedWithLighter: boolean): string =>
      builder
        ? decString(dec(builder.feeRate).mul(pairedWithLighter ? 2 : 1))
        : '0',

    closeUserStreams(): void {
      userStreams?.close()
    },

    async rules(symbol: string): Promise<MarketRules | undefined> {
      const f = (await symbols()).get(symbol)
      if (!f) return undefined
      return {
        venue: 'aster',
        symbol: f.symbol,
        tickSize: f.price.tickSize,
        maxSigFigs: null,
        sizeStep: f.lot.stepSize,
        minNotionalUsd: f.minNotional ?? '0',
        minBase: f.lot.minQty,
        maxLeverage: options.maxLeverage ?? 20,
      }
    },

    symbols: async () => [...(await symbols()).keys()],

    async quote(symbol: string, read?: QuoteOptions): Promise<MarketQuote> {
      const priority = read?.priority
      const s = freshFromStream(
        options.marketStream,
        symbol,
        clock.now(),
        options.streamMaxAgeMs ?? 3_000,
      )
      if (s?.fundingRate !== undefined && s.bid !== undefined) {
        const hours = await intervalHours(symbol, priority)
        return quoteFromStream(
          'aster',
          symbol,
          s,
          decString(dec(s.fundingRate).div(hours)),
          s.at + hours * 3_600_000,
        )
      }
      const [allMarks, allBooks, hours] = await Promise.all([
        marks.get(undefined, marketMaxAge, priority),
        books.get(undefined, marketMaxAge, priority),
        intervalHours(symbol, priority),
      ])
      const premium = rowOf(allMarks.value, symbol)
      const book = rowOf(allBooks.value, symbol)
      const mark = isObj(premium) ? decField(premium.markPrice) : null
      const rate = isObj(premium) ? decField(premium.lastFundingRate) : null
      if (mark === null || rate === null) throw badRead('premiumIndex', premium)
      const bid = isObj(book) ? decField(book.bidPrice) : null
      const ask = isObj(book) ? decField(book.askPrice) : null
      if (bid === null || ask === null) throw badRead('bookTicker', book)
      return {
        venue: 'aster',
        symbol,
        mark,
        bid: bid === '0' ? mark : bid,
        ask: ask === '0' ? mark : ask,
        fundingRateHourly: decString(dec(rate).div(hours)),
        at: Math.min(allMarks.at, allBooks.at),
        ...(isObj(premium) && typeof premium.nextFundingTime === 'number'
          ? { nextFundingAt: premium.nextFundingTime }
          : {}),
      }
    },

    async place(
      cred: VenueCredential,
      order: VenueOrderRequest,
    ): Promise<VenueOrder> {
      const price = positive(order.price, 'price')
      const size = positive(order.size, 'size')
      const params: AsterParam[] = [
        ['symbol', order.market],
        ['side', order.side === 'long' ? 'BUY' : 'SELL'],
        ['type', 'LIMIT'],
        ['timeInForce', TIF[order.timeInForce]],
        ['quantity', size],
        ['price', price],
        ['reduceOnly', order.reduceOnly ? 'true' : 'false'],
        ['newClientOrderId', asterClientOrderId(order.clientOrderId)],
        ['newOrderRespType', 'RESULT'],
      ]
      if (builder) {
        const rate = order.pairedWithLighter
          ? decString(dec(builder.feeRate).mul(2))
          : builder.feeRate
        params.push(['builder', builder.address], ['feeRate', rate])
      }
      const raw = await signed(
        cred,
        'POST',
        '/fapi/v3/order',
        params,
        'write',
        order.validUntil,
      )
        .catch((err: unknown) => {
          // an order without positionSide is one-way's (BOTH): a Hedge
          // Mode account's venue refuses it, nothing done (futures error
          // codes: -4061 position side mismatch). No mode read before
          // each order (positionSide/dual, weight 30 an owner, asked by
          // every process started) where the venue's own answer says it
          throw err instanceof AsterRejectedError && err.venueCode === -4061
            ? hedgeMode()
            : err
        })
        .finally(() => quarantine.wrote(cred.owner.toLowerCase()))
      const placed = parseAsterOrder(raw, order.clientOrderId)
      if (!placed) {
        throw new UncertainAnswer(raw)
      }
      return placed
    },

    cancelAllSwitch: ASTER_CANCEL_ALL_SWITCH,

    armCancelAll: (
      cred: VenueCredential,
      markets: readonly string[],
      at: number | null,
    ) => armAsterCancelAll(signed, cred, markets, at, clock.now()),

    async cancel(
      cred: VenueCredential,
      market: string,
      clientOrderId: string,
    ): Promise<void> {
      try {
        await signed(
          cred,
          'DELETE',
          '/fapi/v3/order',
          [
            ['symbol', market],
            ['origClientOrderId', asterClientOrderId(clientOrderId)],
          ],
          'write',
        )
      } catch (err) {
        // -2011 (final, nothing to cancel) / -2013 (unknown): done unless
        // the order is somehow still live
        if (
          !(err instanceof AsterRejectedError) ||
          (err.venueCode !== -2011 && err.venueCode !== -2013)
        ) {
          throw err
        }
        const now = await query(cred, market, clientOrderId)
        if (now && (now.state === 'open' || now.state === 'partially_filled')) {
          throw err
        }
      }
    },

    order: query,

    // one signed read: its answer (the order, or -2013) has the Date
    orderWithVenueTime: orderWithVenueTime(query),
    visibilityLagMs: ASTER_VISIBILITY_LAG_MS,

    async orderFees(
      cred: VenueCredential,
      market: string,
      order: VenueFilledOrder,
    ): Promise<string | null> {
      if (order.venueOrderId === null) return null
      // the order answers carry no commission; its trades do (weight 5)
      const raw = await signed(
        cred,
        'GET',
        '/fapi/v3/userTrades',
        [
          ['symbol', market],
          ['orderId', order.venueOrderId],
        ],
        'read',
        undefined,
        // bookkeeping after the fact, as funding reads are
        'history',
      )
      const fees = parseAsterOrderFees(
        raw,
        order.venueOrderId,
        order.filledBase,
      )
      if (fees === undefined) throw badRead('userTrades', raw)
      return fees
    },

    accountReadsPerMinute(): number | undefined {
      // positionRisk, against the per-IP REQUEST_WEIGHT
      const weight = budget.perMinute('REQUEST_WEIGHT', 'routine')
      const perRead = asterRequestWeight('GET', '/fapi/v3/positionRisk', '')
      return weight === undefined ? undefined : weight / perRead
    },

    streamAccounts(accounts: readonly StreamedAccount[]): void {
      userStreams?.follow(accounts)
    },

    accountStreamed(who: string): boolean {
      const k = who.toLowerCase()
      return (
        (userStreams?.live(k) ?? false) &&
        streamed.hasBase(k) &&
        quarantine.trusted(k)
      )
    },

    async positions(
      cred: VenueCredential,
      read?: ReadOptions,
    ): Promise<VenuePosition[]> {
      const k = cred.owner.toLowerCase()
      // just after our own order the stream may not show its fill yet
      if (!userStreams || read?.fresh || !quarantine.trusted(k))
        return restPositions(cred, read)
      // a streamed account: the snapshot and the stream answer, and a
      // read goes out only when an event may have moved a liquidation price
      return streamed.read(k, userStreams.live(k), () =>
        restPositions(cred, read),
      )
    },

    balances: (cred: VenueCredential, read?: ReadOptions) =>
      restBalance(cred, read),

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
      const { key } = fundingReadKey(cred.owner, startTime)
      const rows = (
        await incomeRows.get(key, INCOME_SHARED_MS, {
          cred,
          priority: read?.priority,
        })
      ).value
      // income rows carry neither the rate nor the position size
      return rows
        .filter((r) => r.symbol === market && r.time >= startTime)
        .map((r) => ({
          market,
          time: new Date(r.time).toISOString(),
          amountUsd: r.income,
          rate: '0',
          positionSize: '0',
        }))
    },
  })
}

// ---------------------------------------------------------------- helpers

/** The row of `symbol` in an all-symbols answer (premiumIndex, bookTicker). */
function rowOf(rows: unknown, symbol: string): unknown {
  return Array.isArray(rows)
    ? rows.find((r) => isObj(r) && r.symbol === symbol)
    : undefined
}

/** A place answer that is not an order: it may have been placed. */
class UncertainAnswer extends UncertainSubmissionError {
  constructor(raw: unknown) {
    super(
      `aster order: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
    )
  }
}

function hedgeMode(): VenueRejectedError {
  return new VenueRejectedError(
    'the Aster account is in Hedge Mode (dualSidePosition=true); switch it to One-way Mode to trade through this service',
  )
}

function agentKey(cred: VenueCredential): Hex {
  const key = cred.secret
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    throw new VenueRejectedError('no valid Aster agent key for account')
  }
  return key as Hex
}

function owner(cred: VenueCredential): string {
  if (!/^0x[0-9a-fA-F]{40}$/.test(cred.owner)) {
    throw new RangeError(`owner is not an address: ${cred.owner}`)
  }
  return getAddress(cred.owner)
}

function positive(v: string, name: string): string {
  const d = decField(v)
  if (d === null || !dec(d).gt(0)) {
    throw new VenueRejectedError(`${name} must be a positive decimal: ${v}`)
  }
  return d
}

function requireRate(rate: string): string {
  const d = decField(rate)
  // doubled on Lighter-paired legs, it must stay within the 0.1% cap
  if (d === null || dec(d).lt(0) || dec(d).mul(2).gt('0.001')) {
    throw new RangeError(`builder feeRate must be a fraction ≤ 0.0005: ${rate}`)
  }
  return d
}
