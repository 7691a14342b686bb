import {
  type Clock,
  dec,
  decString,
  RequestBudgetError,
  type VenuePosition,
} from '@dn/core'
import type { AsterStreamPosition } from '../stream/asterUserEvents.js'

/**
 * The positions of the accounts an Aster user stream follows: the last
 * REST `positionRisk` snapshot (the base: it alone carries liquidation
 * prices and leverage) with the stream's `ACCOUNT_UPDATE` positions laid
 * on top.
 *
 * When a read needs a request:
 * - any ACCOUNT_UPDATE since the base (a fill, a funding fee, a
 *   liquidation, a transfer) may have moved a liquidation price: the
 *   next read takes one REST snapshot as the new base;
 * - a new connection may have missed events: the same;
 * - a base older than `refreshMs`: the same, since a cross position's
 *   liquidation price drifts with the other positions' PnL and no event
 *   says so;
 * - otherwise the base answers with no request.
 * A REST read the request budget refuses (RequestBudgetError) is served
 * from the stream's view while the stream is live: sizes and entry
 * prices current, liquidation prices as last read.
 */
interface AsterStreamedPositions {
  /** Starts keeping positions for `owner` (lowercase). */
  follow(owner: string): void
  forget(owner: string): void
  /** A connection opened: events may have been missed meanwhile. */
  connected(owner: string): void
  /** An ACCOUNT_UPDATE of `owner` (`time`: its `E`). */
  update(
    owner: string,
    time: number,
    positions: readonly AsterStreamPosition[],
  ): void
  /** True once a REST snapshot of `owner` was taken while followed. */
  hasBase(owner: string): boolean
  /**
   * `owner`'s positions: from the base when `live` and nothing changed,
   * else from `rest()` (kept as the new base when followed).
   */
  read(
    owner: string,
    live: boolean,
    rest: () => Promise<VenuePosition[]>,
  ): Promise<VenuePosition[]>
}

interface Overlay extends AsterStreamPosition {
  /** the event's `E`: a late, older event does not undo a newer one */
  readonly time: number
  /** `changes` once it was applied */
  readonly seq: number
}

interface Account {
  base: { positions: VenuePosition[]; at: number } | undefined
  /** symbol → what the stream said since the base */
  readonly overlay: Map<string, Overlay>
  /** symbol → leverage of the last snapshot that held it */
  readonly leverage: Map<string, string>
  /** counts events and connects: a read spanning one is not trusted */
  changes: number
  stale: boolean
}

export function createAsterStreamedPositions(options: {
  readonly clock: Clock
  /** ms a base serves before it is read again @default 120_000 */
  readonly refreshMs?: number | undefined
}): AsterStreamedPositions {
  const { clock } = options
  const refreshMs = options.refreshMs ?? 120_000
  const accounts = new Map<string, Account>()

  function touch(a: Account) {
    a.changes += 1
    a.stale = true
  }

  return {
    follow(owner) {
      if (accounts.has(owner)) return
      accounts.set(owner, {
        base: undefined,
        overlay: new Map(),
        leverage: new Map(),
        changes: 0,
        stale: true,
      })
    },
    forget: (owner) => void accounts.delete(owner),
    connected(owner) {
      const a = accounts.get(owner)
      if (a) touch(a)
    },
    update(owner, time, positions) {
      const a = accounts.get(owner)
      if (!a) return
      touch(a)
      for (const p of positions) {
        const had = a.overlay.get(p.symbol)
        if (had && had.time > time) continue
        a.overlay.set(p.symbol, { ...p, time, seq: a.changes })
      }
    },
    hasBase: (owner) => accounts.get(owner)?.base !== undefined,
    async read(owner, live, rest) {
      const a = accounts.get(owner)
      if (!a) return rest()
      const now = clock.now()
      if (live && a.base && !a.stale && now - a.base.at < refreshMs) {
        return view(a)
      }
      const seen = a.changes
      let positions: VenuePosition[]
      try {
        positions = await rest()
      } catch (err) {
        if (err instanceof RequestBudgetError && live && a.base) {
          return view(a)
        }
        throw err
      }
      if (accounts.get(owner) !== a) return positions
      a.base = { positions, at: now }
      for (const p of positions) a.leverage.set(p.market, p.leverage)
      // what came before the request is in the snapshot; what came during
      // it may not be, so it stays on top and the next read looks again
      for (const [s, o] of a.overlay) if (o.seq <= seen) a.overlay.delete(s)
      a.stale = a.changes !== seen
      return view(a)
    },
  }
}

/** The base with the stream's positions laid on top. */
function view(a: Account): VenuePosition[] {
  const out = new Map((a.base?.positions ?? []).map((p) => [p.market, p]))
  for (const o of a.overlay.values()) {
    // Hedge Mode rows are not one net position: the REST read refuses them
    if (o.positionSide !== 'BOTH') continue
    const size = dec(o.size)
    if (size.isZero()) {
      out.delete(o.symbol)
      continue
    }
    const was = out.get(o.symbol)
    // ACCOUNT_UPDATE has no mark: entry + unrealized PnL per unit
    const mark =
      o.unrealizedPnl === null
        ? (was?.markPrice ?? o.entryPrice)
        : decString(dec(o.entryPrice).add(dec(o.unrealizedPnl).div(size)))
    out.set(o.symbol, {
      market: o.symbol,
      size: o.size,
      entryPrice: o.entryPrice,
      markPrice: mark,
      // not in the event: the last snapshot's (display only)
      leverage: was?.leverage ?? a.leverage.get(o.symbol) ?? '1',
      marginMode:
        o.marginType === 'isolated' || o.marginType === 'cross'
          ? o.marginType
          : (was?.marginMode ?? 'cross'),
      liquidationPrice: was?.liquidationPrice ?? null,
    })
  }
  return [...out.values()]
}
