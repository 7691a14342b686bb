import { dec, decString } from '@dn/core'
import type { HlFakeState } from './hlFakeState.js'
import { candleIntervalMs, hlCandles } from './hlMarkCandles.js'

/**
 * Market reads in the venue's shapes (nktkas `l2Book`, `predictedFundings`,
 * `fundingHistory`, `candleSnapshot`): the engine's live book, its
 * current and settled funding rates, and candles of sampled marks.
 * Bad fields throw `HlFieldError`, answered 422 like the venue.
 *
 * @module
 */

/** A missing or malformed `/info` field. */
export class HlFieldError extends Error {
  override name = 'HlFieldError'
  constructor(field: string) {
    super(`Failed to deserialize the JSON body into the target type: ${field}`)
  }
}

/** The venue answers at most 500 funding periods per request. */
const FUNDING_PAGE = 500
/** The venue answers at most 5000 candles per request. */
const CANDLE_PAGE = 5000

function listedCoin(state: HlFakeState, coin: unknown): string {
  if (typeof coin !== 'string' || !state.exchange.rules(coin)) {
    throw new HlFieldError('coin')
  }
  return coin
}

/** `l2Book`: `{coin, time, levels: [bids, asks]}`, each `{px, sz, n}`. */
export function l2Book(state: HlFakeState, body: Record<string, unknown>) {
  const coin = listedCoin(state, body.coin)
  const book = state.exchange.book(coin)
  const side = (levels: typeof book.bids) =>
    levels.slice(0, 20).map((l) => ({
      px: decString(l.price),
      sz: decString(l.size),
      n: 1,
    }))
  return {
    coin,
    time: state.now(),
    levels: [side(book.bids), side(book.asks)],
  }
}

/**
 * `predictedFundings`: per coin, the fake's own venue (`HlPerp`) with the
 * current hourly rate and the next settlement; other venues the real
 * answer lists (BinPerp, BybitPerp) are not simulated.
 */
export function predictedFundings(state: HlFakeState) {
  const next = state.exchange.nextFundingAt()
  const hours = state.exchange.fundingIntervalMs / 3_600_000
  return state.exchange.listed().map((r) => [
    r.symbol,
    [
      [
        'HlPerp',
        {
          fundingRate: state.exchange.quote(r.symbol).fundingRateHourly,
          nextFundingTime: next,
          fundingIntervalHours: hours,
        },
      ],
    ],
  ])
}

/** `fundingHistory`: settled rates of a coin, oldest first. */
export function fundingHistory(
  state: HlFakeState,
  body: Record<string, unknown>,
) {
  const coin = listedCoin(state, body.coin)
  const { startTime, endTime } = body
  if (typeof startTime !== 'number') throw new HlFieldError('startTime')
  const end = typeof endTime === 'number' ? endTime : state.now()
  return state.exchange
    .fundingRates(coin, startTime, end, FUNDING_PAGE)
    .map((f) => ({
      coin,
      fundingRate: f.rate,
      premium: decString(dec(0)),
      time: f.time,
    }))
}

/** `candleSnapshot` (`{req: {coin, interval, startTime, endTime?}}`). */
export function candleSnapshot(
  state: HlFakeState,
  body: Record<string, unknown>,
) {
  const req = body.req as Record<string, unknown> | undefined
  if (!req || typeof req !== 'object') throw new HlFieldError('req')
  const coin = listedCoin(state, req.coin)
  if (candleIntervalMs(req.interval) === undefined) {
    throw new HlFieldError('interval')
  }
  if (typeof req.startTime !== 'number') throw new HlFieldError('startTime')
  const end = typeof req.endTime === 'number' ? req.endTime : state.now()
  return hlCandles(
    state,
    coin,
    req.interval as string,
    req.startTime,
    end,
  ).slice(-CANDLE_PAGE)
}

/** `exchangeStatus`: the fake's time and no special status. */
export function exchangeStatus(state: HlFakeState) {
  return { time: state.now(), specialStatuses: null }
}
