import {
  dec,
  decString,
  type FundingPayment,
  HOUR_MS,
  hourStart,
  msToIso,
} from '@dn/core'
import { decField, isObj } from '../../wire/jsonFields.js'

/**
 * A state this long after the hour shows that hour's settlement: the venue
 * applies funding in the first blocks of the hour, well within it.
 */
export const HL_SETTLED_AFTER_MS = 5_000

/** One coin of a main-dex clearinghouseState, as funding needs it. */
interface CoinState {
  readonly szi: string
  /** funding paid on the coin over all time (positive: paid) */
  readonly allTime: string
  /** mark price of the position at the state */
  readonly mark: string
}

interface HeldState {
  /** the venue's time of the state */
  readonly at: number
  readonly coins: ReadonlyMap<string, CoinState>
}

interface UserStates {
  /** the last state of an earlier hour than `latest` */
  before: HeldState | undefined
  latest: HeldState
  /** when our last order on each coin went out (our clock) */
  readonly traded: Map<string, number>
}

interface HlCumFunding {
  /**
   * Remembers a main-dex clearinghouseState of `user`, as the venue showed
   * it at `at` (its `time`). A state of the first seconds of an hour may
   * or may not show that hour's settlement: it is not kept.
   */
  observe(user: string, at: number, raw: unknown): void
  /** Our order on `coin` went out at `at`: a size change the states may hide. */
  traded(user: string, coin: string, at: number): void
  /** Whether a state that shows the settlement at `hour` is held. */
  settledStateHeld(user: string, hour: number): boolean
  /**
   * The payment on `coin` at the settlement `hour`, from the cumulative
   * funding of the last state before it and a state after it: null when
   * no position was held across it, undefined when the states cannot tell
   * (either is missing, the size changed or we traded around it).
   */
  payment(
    user: string,
    coin: string,
    hour: number,
  ): FundingPayment | null | undefined
}

/**
 * Funding payments read off the cumulative funding Hyperliquid shows on
 * every position of a `clearinghouseState` (positive: paid): the payment
 * of a settlement is the change across it, so the positions reads that
 * monitoring makes anyway book funding, and `userFunding` (weight 20 and
 * more per account) is read only when the states cannot tell. Main dex
 * only: a builder dex keeps its own clearinghouse.
 */
export function createHlCumFunding(): HlCumFunding {
  const users = new Map<string, UserStates>()

  return {
    observe(user, at, raw) {
      if (at - hourStart(at) < HL_SETTLED_AFTER_MS) return
      const state = parseState(at, raw)
      if (!state) return
      const u = user.toLowerCase()
      const held = users.get(u)
      if (!held) {
        users.set(u, { before: undefined, latest: state, traded: new Map() })
        return
      }
      if (at <= held.latest.at) return
      if (hourStart(at) > hourStart(held.latest.at)) held.before = held.latest
      held.latest = state
    },

    traded(user, coin, at) {
      const held = users.get(user.toLowerCase())
      if (held) held.traded.set(coin, Math.max(held.traded.get(coin) ?? 0, at))
    },

    settledStateHeld(user, hour) {
      const latest = users.get(user.toLowerCase())?.latest
      return latest !== undefined && hourStart(latest.at) === hour
    },

    payment(user, coin, hour) {
      const held = users.get(user.toLowerCase())
      const { before, latest: after } = held ?? {}
      if (
        !held ||
        !before ||
        !after ||
        hourStart(after.at) !== hour ||
        hourStart(before.at) !== hour - HOUR_MS
      ) {
        return undefined
      }
      // our own order between the states: the size paid on may differ
      // from both (a margin for the clocks: ours, and the venue's time)
      if ((held.traded.get(coin) ?? 0) >= before.at - HL_SETTLED_AFTER_MS) {
        return undefined
      }
      const a = before.coins.get(coin)
      const b = after.coins.get(coin)
      if (!a && !b) return null
      if (!a || !b || !dec(a.szi).eq(b.szi)) return undefined
      const received = dec(a.allTime).sub(b.allTime)
      const notional = dec(a.szi).mul(a.mark)
      return {
        market: coin,
        time: msToIso(hour),
        amountUsd: decString(received.isZero() ? dec(0) : received),
        // the rate as the payment implies it at the mark before settling
        // (the venue settles at its oracle price)
        rate: notional.isZero()
          ? '0'
          : decString(received.neg().div(notional).toDecimalPlaces(10)),
        positionSize: a.szi,
      }
    },
  }
}

function parseState(at: number, raw: unknown): HeldState | undefined {
  if (!isObj(raw) || !Array.isArray(raw.assetPositions)) return undefined
  const coins = new Map<string, CoinState>()
  for (const ap of raw.assetPositions) {
    const p = isObj(ap) ? ap.position : null
    if (!isObj(p) || typeof p.coin !== 'string') return undefined
    const cum = isObj(p.cumFunding) ? p.cumFunding : null
    const szi = decField(p.szi)
    const value = decField(p.positionValue)
    const allTime = cum === null ? null : decField(cum.allTime)
    // a state without cumulative funding cannot book any: not kept
    if (szi === null || value === null || allTime === null) return undefined
    if (dec(szi).isZero()) continue
    coins.set(p.coin, {
      szi,
      allTime,
      mark: decString(dec(value).div(dec(szi).abs())),
    })
  }
  return { at, coins }
}
