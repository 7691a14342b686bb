import {
  type Clock,
  createSharedRead,
  type FundingPayment,
  HOUR_MS,
  type LookupOptions,
  type MarketQuote,
  type MarketRules,
  type QuoteOptions,
  type ReadOptions,
  type RequestPriority,
  type StreamedAccount,
  systemClock,
  type VenueAdapter,
  type VenueBalance,
  type VenueCredential,
  type VenueOrder,
  type VenuePosition,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import { createHeldBalances } from '../../wire/heldBalances.js'
import {
  freshFromStream,
  type MarketStream,
  quoteFromStream,
} from '../../wire/marketStream.js'
import { createStreamQuarantine } from '../../wire/streamQuarantine.js'
import { orderWithVenueTime } from '../../wire/venueClock.js'
import { lighterSignerChainId } from '../binding/lighterSignerChainId.js'
import {
  type LighterVenue,
  requireLighterVenue,
} from '../binding/lighterVenue.js'
import type { LighterTier } from '../limits/lighterLimits.js'
import { createLighterAuthToken } from '../signer/authToken.js'
import type {
  LighterAccountStreams,
  LighterAccountStreamsOptions,
} from '../stream/createLighterAccountStreams.js'
import { hourlyFromRestRate } from '../stream/lighterFundingUnits.js'
import {
  armLighterCancelAll,
  LIGHTER_CANCEL_ALL_SWITCH,
} from './armLighterCancelAll.js'
import { cancelLighterOrder } from './cancelLighterOrder.js'
import {
  createLighterNonceManager,
  type LighterNonceManager,
} from './createLighterNonceManager.js'
import { lighterAccountFees } from './lighterAccountFees.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import { lighterClientOrderIndex } from './lighterClientOrderIndex.js'
import {
  type LighterSigningKey,
  lighterCredential,
} from './lighterCredential.js'
import {
  type LighterMarket,
  parseLighterMarkets,
  stepOf,
} from './lighterMarkets.js'
import { lighterOrderView } from './lighterOrderView.js'
import {
  createLighterTransport,
  type LighterBudget,
  lighterBudgetOf,
} from './lighterTransport.js'
import { badAnswer, decField, intField, isObj } from './lighterWireValue.js'
import { parseLighterBalance } from './parseLighterBalance.js'
import { parseLighterFunding } from './parseLighterFunding.js'
import {
  parseLighterPositionRows,
  parseLighterPositions,
} from './parseLighterPositions.js'
import { placeLighterOrder } from './placeLighterOrder.js'

export interface LighterAdapterOptions {
  readonly venue: LighterVenue
  /** `https://api.rh.lighter.xyz`, `https://mainnet.zklighter.elliot.ai`, ... */
  readonly baseUrl: string
  /** @default globalThis.fetch */
  readonly fetchFn?: typeof globalThis.fetch | undefined
  /** @default systemClock */
  readonly clock?: Clock | undefined
  /** sign for the testnet chain 300 @default false */
  readonly testnet?: boolean | undefined
  /** share one manager among adapters of a process @default a new one */
  readonly nonces?: LighterNonceManager | undefined
  /** ms per HTTP request @default 10_000 */
  readonly timeout?: number | undefined
  /** ms the market list is cached @default 60_000 */
  readonly metaTtlMs?: number | undefined
  /**
   * resends after `invalid nonce`; each is safe (the tx was refused), and
   * several processes sharing a key may collide more than once @default 3
   */
  readonly nonceRetries?: number | undefined
  /** lookups of an accepted create @default 6, 100 ms apart, doubling */
  readonly confirmAttempts?: number | undefined
  readonly confirmDelayMs?: number | undefined
  /**
   * the account tier whose rate limits apply, when no `budget` is given
   * (a budget brings its own) @default 'standard'
   */
  readonly tier?: LighterTier | undefined
  /**
   * this deployment's request budget, shared by its adapter and binder
   * @default one of its own at half the tier's limits
   */
  readonly budget?: LighterBudget | undefined
  /**
   * ms one read of every market's mark serves quotes for @default 5_000;
   * funding rates are read at most once a minute
   */
  readonly marketMaxAgeMs?: number | undefined
  /**
   * `market_stats/all` over the WebSocket: the primary source of marks
   * and funding rates; REST serves when it is missing or quiet. Built
   * with the adapter's own market list (streams name markets by id).
   */
  readonly marketStream?:
    | ((symbolOf: (marketId: number) => string | undefined) => MarketStream)
    | undefined
  /** ms a streamed value stays usable @default 3_000 */
  readonly streamMaxAgeMs?: number | undefined
  /**
   * User streams: `account_all` per watched account (busiest first, see
   * `streamAccounts`), whose positions are then served with no request.
   * Built with the adapter's auth-token cache; omitted: user streams off,
   * every positions read is REST.
   */
  readonly accountStreams?:
    | ((
        deps: Pick<LighterAccountStreamsOptions, 'authToken'>,
      ) => LighterAccountStreams)
    | undefined
  /** integrator account sent as attribute 1 on orders @default none */
  readonly integratorAccountIndex?: number | null | undefined
  /**
   * The venue settles funding at every multiple of this: a simulator's
   * `--funding-interval` (Lighter itself settles hourly) @default 3_600_000
   */
  readonly fundingIntervalMs?: number | undefined
}

/** Auth tokens live 10 minutes and are renewed a minute before. */
const AUTH_TTL_S = 600
const AUTH_RENEW_S = 60
/**
 * A streamed account's positions are still read by REST this often (one
 * request per account on its own limit, 0.5 a minute).
 */
const STREAMED_REST_MS = 120_000

/** funding-rates changes slowly and settles hourly: read once a minute */
const FUNDING_RATES_MAX_AGE_MS = 60_000

/**
 * How long past a tx's `ExpiredAt`, on Lighter's clock, an order it
 * created may still be missing from `accountOrders`. `sendTx` only queues
 * the tx for the sequencer, which drops what it has not executed by
 * `ExpiredAt` (lighter-go `DefaultExpireTime`; /work/shared/venues/
 * lighter.md), then executes in batches (standard accounts: 300 ms taker
 * latency, docs "account-types") and the API's order reads follow from an
 * index behind the sequencer. The longest of the adapters' lags, for the
 * longest path.
 */
const LIGHTER_VISIBILITY_LAG_MS = 20_000

/**
 * How long a Lighter order's tx may be executed after the worker commits
 * it (its `ExpiredAt`): a send whose answer was lost is proven never
 * placed only past this plus the 20 s lag above, so a shorter window
 * leaves a market order's 60 s queue deadline room for a second and third
 * send. It covers the wait for the account's budget and the key's nonce
 * lock (faulted runs: 90 % of sends leave within 4 s); a send it does not
 * cover is refused unsent and goes again.
 */
const LIGHTER_SEND_WINDOW_MS = 6_000

/**
 * The Lighter venue adapter (`lighter`, `lighter-mainnet`) over Lighter's
 * REST API: markets from `orderBookDetails`, quotes from it plus
 * `orderBookOrders` and `funding-rates`, positions from `account`,
 * orders and funding from the authenticated `accountOrders` and
 * `positionFunding`, and creates / cancels as Schnorr-signed L2 txs sent
 * to `sendTx` with per-key nonces. With `accountStreams`, the busiest
 * watched accounts' positions come from `account_all` instead of
 * `account` (`stream/createLighterAccountStreams.ts`).
 *
 * @example
 * createLighterAdapter({ venue: 'lighter-mainnet',
 *   baseUrl: 'https://mainnet.zklighter.elliot.ai' })
 */
export function createLighterAdapter(
  options: LighterAdapterOptions,
): VenueAdapter {
  const venue = requireLighterVenue(options.venue)
  const clock = options.clock ?? systemClock
  const fundingInterval = options.fundingIntervalMs ?? HOUR_MS
  const nextSettlement = (t: number) =>
    Math.floor(t / fundingInterval) * fundingInterval + fundingInterval
  const ttl = options.metaTtlMs ?? 60_000
  const transport = createLighterTransport({
    baseUrl: options.baseUrl,
    fetchFn: options.fetchFn ?? globalThis.fetch,
    timeout: options.timeout ?? 10_000,
    budget: lighterBudgetOf(options, clock),
  })
  const marketMaxAge = options.marketMaxAgeMs ?? 5_000
  const marketList = createSharedRead(clock, loadMarkets)
  const fundingRates = createSharedRead(clock, loadFundingRates)
  const stream = options.marketStream?.(
    (id) =>
      marketList.peek(undefined)?.value.find((m) => m.marketId === id)?.symbol,
  )
  const tokens = new Map<
    string,
    { secret: string; token: string; until: number }
  >()

  /** every perp market, with its mark: one request for all of them */
  async function loadMarkets(
    _: undefined,
    priority: RequestPriority | undefined,
  ): Promise<LighterMarket[]> {
    // one read serves every quote and order price: ahead of routine reads
    const raw = await transport.get(
      'orderBookDetails',
      { market_id: 255, filter: 'perp' },
      undefined,
      priority ?? 'urgent',
    )
    return parseLighterMarkets(raw)
  }

  /** Lighter's funding rate per hour of every market, by market id */
  async function loadFundingRates(
    _: undefined,
    priority: RequestPriority | undefined,
  ): Promise<Map<number, string>> {
    const raw = await transport.get(
      'funding-rates',
      {},
      undefined,
      priority ?? 'urgent',
    )
    const rates = new Map<number, string>()
    if (!Array.isArray(raw.funding_rates)) return rates
    for (const r of raw.funding_rates) {
      if (!isObj(r) || r.exchange !== 'lighter') continue
      const id = intField(r.market_id)
      const rate = decField(r.rate)
      if (id !== null && rate !== null) rates.set(id, hourlyFromRestRate(rate))
    }
    return rates
  }

  async function markets(
    maxAgeMs = ttl,
    priority?: RequestPriority,
  ): Promise<LighterMarket[]> {
    return (await marketList.get(undefined, maxAgeMs, priority)).value
  }

  function usable(m: LighterMarket): LighterMarket {
    if (m.ambiguousDecimals) {
      throw new VenueUnavailableError(
        `lighter ${m.symbol}: size/price decimals differ from the supported ones`,
      )
    }
    return m
  }

  const ctx: LighterAdapterContext = {
    venue,
    chainId: lighterSignerChainId(venue, options.testnet ?? false),
    clock,
    transport,
    nonces: options.nonces ?? createLighterNonceManager(),
    nonceRetries: options.nonceRetries ?? 3,
    confirmAttempts: options.confirmAttempts ?? 6,
    confirmDelayMs: options.confirmDelayMs ?? 100,
    integratorAccountIndex: options.integratorAccountIndex ?? null,
    async market(symbol) {
      const m = (await markets()).find((x) => x.symbol === symbol)
      if (!m) throw new VenueRejectedError(`unknown market ${symbol}`)
      return usable(m)
    },
    authToken(key: LighterSigningKey) {
      const id = `${key.accountIndex}:${key.apiKeyIndex}`
      const nowS = Math.floor(clock.now() / 1000)
      const hit = tokens.get(id)
      if (
        hit &&
        hit.secret === key.privateKey &&
        hit.until - AUTH_RENEW_S > nowS
      ) {
        return { token: hit.token, l1Address: key.l1Address }
      }
      const until = nowS + AUTH_TTL_S
      const token = createLighterAuthToken({
        deadline: until,
        accountIndex: key.accountIndex,
        apiKeyIndex: key.apiKeyIndex,
        privateKey: key.privateKey,
      })
      tokens.set(id, { secret: key.privateKey, token, until })
      return { token, l1Address: key.l1Address }
    },
    async findOrder(
      key,
      m,
      clientOrderId,
      priority = 'urgent',
    ): Promise<VenueOrder | null> {
      const coi = lighterClientOrderIndex(clientOrderId)
      // the spec's accountOrders has no market filter (account_index and
      // client_order_indexes only): the answer is matched to the market
      const raw = await transport.get(
        'accountOrders',
        { account_index: key.accountIndex, client_order_indexes: coi },
        ctx.authToken(key),
        priority,
      )
      if (!Array.isArray(raw.orders)) throw badAnswer('accountOrders', raw)
      const hit = raw.orders.find(
        (o: unknown) =>
          isObj(o) &&
          intField(o.client_order_index) === coi &&
          intField(o.market_index) === m.marketId,
      )
      return hit === undefined ? null : lighterOrderView(hit, clientOrderId)
    },
  }

  /** account index → when its positions were last read by REST */
  const lastRest = new Map<number, number>()
  /** account index → the balance its last REST read carried */
  const balances = createHeldBalances(clock)
  /** account index → its orders' fees, as its last REST read showed */
  const feesByAccount = new Map<number, '0' | null>()
  /** `account?by=index`: positions and balance in one read */
  async function restAccount(
    key: ReturnType<typeof lighterCredential>,
    priority: ReadOptions['priority'],
  ) {
    const sentAt = clock.now()
    // as the account: its own limit, not the IP's, is spent
    const raw = await transport.get(
      'account',
      { by: 'index', value: key.accountIndex },
      ctx.authToken(key),
      priority,
    )
    lastRest.set(key.accountIndex, sentAt)
    const fees = lighterAccountFees(raw)
    if (fees !== undefined) feesByAccount.set(key.accountIndex, fees)
    const balance = parseLighterBalance(raw, sentAt)
    if (balance) balances.hold(String(key.accountIndex), balance)
    return { raw, balance }
  }
  const accountStreams = options.accountStreams?.({
    authToken: (key) => ctx.authToken(key).token,
  })

  /** The order by client order id on a listed market. */
  async function lookUpOrder(
    cred: VenueCredential,
    market: string,
    clientOrderId: string,
    options?: LookupOptions,
  ): Promise<VenueOrder | null> {
    const key = lighterCredential(cred)
    const m = (await markets()).find((x) => x.symbol === market)
    if (!m) return null
    return ctx.findOrder(key, m, clientOrderId, options?.priority)
  }

  const quarantine = createStreamQuarantine(clock)
  const adapter: VenueAdapter = {
    venue,

    streamAccounts(accounts: readonly StreamedAccount[]): void {
      accountStreams?.follow(accounts)
    },

    accountStreamed: (owner: string) =>
      accountStreams?.live(owner) !== undefined &&
      quarantine.trusted(owner.toLowerCase()),

    async rules(symbol: string): Promise<MarketRules | undefined> {
      const found = (await markets()).find((x) => x.symbol === symbol)
      if (!found) return undefined
      const m = usable(found)
      return {
        venue,
        symbol: m.symbol,
        tickSize: stepOf(m.priceDecimals),
        maxSigFigs: null,
        sizeStep: stepOf(m.sizeDecimals),
        minNotionalUsd: m.minQuote,
        minBase: m.minBase,
        maxLeverage: m.maxLeverage,
      }
    },

    symbols: async () => (await markets()).map((m) => m.symbol),

    async quote(symbol: string, read?: QuoteOptions): Promise<MarketQuote> {
      const priority = read?.priority
      if (!marketList.peek(undefined)) await markets(ttl, priority)
      const s = freshFromStream(
        stream,
        symbol,
        clock.now(),
        options.streamMaxAgeMs ?? 3_000,
      )
      if (s?.fundingRate !== undefined) {
        return quoteFromStream(
          venue,
          symbol,
          s,
          s.fundingRate,
          nextSettlement(s.at),
        )
      }
      const [snap, rates] = await Promise.all([
        marketList.get(undefined, marketMaxAge, priority),
        fundingRates.get(undefined, FUNDING_RATES_MAX_AGE_MS, priority),
      ])
      const m = snap.value.find((x) => x.symbol === symbol)
      if (!m?.mark)
        throw new VenueUnavailableError(`lighter: no market ${symbol}`)
      return {
        venue,
        symbol,
        mark: m.mark,
        // a best bid/ask costs a 300-weight request per market; nothing
        // the service decides uses it, so the mark stands for both
        bid: m.mark,
        ask: m.mark,
        fundingRateHourly: rates.value.get(m.marketId) ?? '0',
        at: snap.at,
        nextFundingAt: nextSettlement(snap.at),
      }
    },

    async place(cred: VenueCredential, order): Promise<VenueOrder> {
      try {
        return await placeLighterOrder(ctx, lighterCredential(cred), order)
      } finally {
        quarantine.wrote(cred.owner.toLowerCase())
      }
    },

    async cancel(cred: VenueCredential, market: string, clientOrderId: string) {
      return cancelLighterOrder(
        ctx,
        lighterCredential(cred),
        market,
        clientOrderId,
      )
    },

    cancelAllSwitch: LIGHTER_CANCEL_ALL_SWITCH,

    // one schedule for the account: the markets do not matter
    async armCancelAll(
      cred: VenueCredential,
      _markets: readonly string[],
      at: number | null,
    ): Promise<void> {
      await armLighterCancelAll(ctx, lighterCredential(cred), at)
    },

    order: lookUpOrder,
    // the listing (when read now) and `accountOrders`: the earlier Date
    orderWithVenueTime: orderWithVenueTime(lookUpOrder),
    visibilityLagMs: LIGHTER_VISIBILITY_LAG_MS,
    sendWindowMs: LIGHTER_SEND_WINDOW_MS,

    async orderFees(cred: VenueCredential): Promise<string | null> {
      // the tier decides, not the order: the account reads that the
      // snapshots make anyway keep it current, so this seldom reads
      const key = lighterCredential(cred)
      const known = feesByAccount.get(key.accountIndex)
      if (known !== undefined) return known
      const { raw } = await restAccount(key, 'history')
      return lighterAccountFees(raw) ?? null
    },

    async positions(
      cred: VenueCredential,
      read?: ReadOptions,
    ): Promise<VenuePosition[]> {
      const key = lighterCredential(cred)
      // a streamed account's positions as the venue pushed them: no
      // request, but a REST read every STREAMED_REST_MS all the same:
      // whether the venue pushes when only marks move a cross position's
      // liquidation price is [unverified]
      const streamed = read?.fresh
        ? undefined
        : accountStreams?.live(cred.owner)
      const restAt = lastRest.get(key.accountIndex) ?? 0
      if (
        streamed?.accountIndex === key.accountIndex &&
        clock.now() - restAt < STREAMED_REST_MS &&
        // just after our own order the push may not show its fill yet
        quarantine.trusted(cred.owner.toLowerCase())
      ) {
        // symbols only: a market list of any age names them
        const list = marketList.peek(undefined)?.value ?? (await markets())
        return parseLighterPositionRows(
          streamed.rows,
          (id) => list.find((m) => m.marketId === id)?.symbol,
          'account_all',
          streamed.rows,
        )
      }
      const [{ raw }, list] = await Promise.all([
        restAccount(key, read?.priority),
        markets(),
      ])
      return parseLighterPositions(
        raw,
        (id) => list.find((m) => m.marketId === id)?.symbol,
      )
    },

    async balances(
      cred: VenueCredential,
      read?: ReadOptions,
    ): Promise<VenueBalance> {
      const key = lighterCredential(cred)
      const held = balances.fresh(String(key.accountIndex), read?.maxAgeMs ?? 0)
      if (held) return held
      const { raw, balance } = await restAccount(key, read?.priority)
      if (!balance) throw badAnswer('account', raw)
      return balance
    },

    async funding(cred, market, since, read): Promise<FundingPayment[]> {
      const sinceMs = Date.parse(since)
      if (!Number.isFinite(sinceMs)) {
        throw new RangeError(`since must be an ISO time: ${since}`)
      }
      const key = lighterCredential(cred)
      const m = await ctx.market(market)
      const raw = await transport.get(
        'positionFunding',
        { account_index: key.accountIndex, market_id: m.marketId, limit: 100 },
        ctx.authToken(key),
        read?.priority ?? 'history',
      )
      return parseLighterFunding(raw, market, m.marketId, sinceMs)
    },
  }
  return Object.freeze(adapter)
}
