import { createHash } from 'node:crypto'
import type { OrderSide } from '../domain/perpOrder.js'
import { roundPrice } from '../domain/priceRules.js'
import type { TaskRecord } from '../domain/task.js'
import type { Leg, LegOrder, TaskOperation } from '../domain/taskEngineState.js'
import {
  UncertainSubmissionError,
  VenueRejectedError,
  VenueUnavailableError,
} from '../errors/venue.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import type {
  VenueAdapter,
  VenueCredential,
  VenueOrder,
} from '../ports/venueAdapter.js'
import { dec, decString } from '../util/decimal.js'

/** Slippage allowed on the IOC orders a task sends, in basis points. */
export const TASK_SLIPPAGE_BPS = 100
/** Wider for closes: getting out matters more than the last basis point. */
export const CLOSE_SLIPPAGE_BPS = 500

/** Deterministic 128-bit client order id of one leg of one operation. */
export function legClientOrderId(
  taskId: string,
  seq: number,
  leg: Leg,
): string {
  const h = createHash('sha256').update(`${taskId}|${seq}|${leg}`).digest('hex')
  return `0x${h.slice(0, 32)}`
}

export function venueOf(task: TaskRecord, leg: Leg) {
  return leg === 'long' ? task.longVenue : task.shortVenue
}

export function marketOf(task: TaskRecord, leg: Leg): string {
  return leg === 'long' ? task.longMarket : task.shortMarket
}

/** A new leg order: IOC at a protection price on the venue's grid. */
export function newLegOrder(
  task: TaskRecord,
  seq: number,
  leg: Leg,
  side: OrderSide,
  size: string,
  reduceOnly: boolean,
  market: { rules: MarketRules; quote: MarketQuote },
  slippageBps: number,
): LegOrder {
  const bps = dec(slippageBps).div(10_000)
  const mark = dec(market.quote.mark)
  const price =
    side === 'long'
      ? roundPrice(market.rules, mark.mul(dec(1).add(bps)), 'up')
      : roundPrice(market.rules, mark.mul(dec(1).sub(bps)), 'down')
  return {
    clientOrderId: legClientOrderId(task.id, seq, leg),
    side,
    size,
    price: decString(price),
    reduceOnly,
    state: 'sending',
    filledBase: '0',
    averagePrice: null,
    failed: null,
  }
}

function fromVenue(order: LegOrder, v: VenueOrder): LegOrder {
  const filled = dec(v.filledBase)
  const final = v.state !== 'open' && v.state !== 'partially_filled'
  return {
    ...order,
    state: final ? 'done' : 'sending',
    filledBase: decString(filled),
    averagePrice: filled.isZero() ? null : v.averagePrice,
    failed:
      final && filled.isZero()
        ? (v.reason ?? `${v.venueStatus}: nothing filled`)
        : null,
  }
}

export interface LegIo {
  readonly adapter: VenueAdapter
  readonly cred: VenueCredential
  readonly market: string
  /** the other leg trades on a Lighter venue (doubles builder fees) */
  readonly pairedWithLighter: boolean
}

/**
 * Drives every `sending` leg of an operation one step. A leg just created
 * is placed; a leg found `sending` after a restart is first looked up by
 * its client order id and placed only if the venue has never seen it.
 * @returns the operation with updated legs, and whether a venue could not
 * be reached (retry later)
 */
export async function driveLegs(
  op: TaskOperation,
  io: Readonly<Partial<Record<Leg, LegIo>>>,
  fresh: boolean,
): Promise<{ op: TaskOperation; unreachable: string[] }> {
  const unreachable: string[] = []
  const legs = { ...op.legs }
  await Promise.all(
    (Object.keys(legs) as Leg[]).map(async (leg) => {
      const order = legs[leg]
      const ctx = io[leg]
      if (!order || order.state === 'done' || !ctx) return
      try {
        if (!fresh) {
          const seen = await ctx.adapter.order(
            ctx.cred,
            ctx.market,
            order.clientOrderId,
          )
          if (seen) {
            legs[leg] = fromVenue(order, seen)
            return
          }
        }
        const placed = await ctx.adapter.place(ctx.cred, {
          market: ctx.market,
          side: order.side,
          size: order.size,
          price: order.price,
          timeInForce: 'ioc',
          reduceOnly: order.reduceOnly,
          clientOrderId: order.clientOrderId,
          pairedWithLighter: ctx.pairedWithLighter,
        })
        legs[leg] = fromVenue(order, placed)
      } catch (err) {
        if (err instanceof VenueRejectedError) {
          legs[leg] = { ...order, state: 'done', failed: err.reason }
        } else if (
          err instanceof VenueUnavailableError ||
          err instanceof UncertainSubmissionError
        ) {
          // stays `sending`: the next round looks it up by client order id
          unreachable.push(`${ctx.adapter.venue}: ${err.message}`)
        } else {
          throw err
        }
      }
    }),
  )
  return { op: { ...op, legs }, unreachable }
}

export function allDone(op: TaskOperation): boolean {
  return Object.values(op.legs).every((l) => l?.state === 'done')
}
