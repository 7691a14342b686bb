import { createHash } from 'node:crypto'
import type { OrderSide } from '../domain/perpOrder.js'
import { venueProtectionPrice } from '../domain/protectionPrice.js'
import { NEVER_PLACED_AFTER_MS, SEND_WINDOW_MS } from '../domain/sendWindow.js'
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
import { msToIso } from '../util/time.js'
import { resolveCredential } from './resolveCredential.js'
import type { WorkerDeps } from './workerDeps.js'

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
  const price = venueProtectionPrice(
    market.rules,
    market.quote.mark,
    side,
    slippageBps,
  )
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
 * A leg's venue, market and decrypted credential.
 * @throws {CredentialUnavailableError} when its venue cannot be used
 */
export async function legIo(
  deps: WorkerDeps,
  task: TaskRecord,
  leg: Leg,
  now: number,
): Promise<LegIo> {
  const venue = venueOf(task, leg)
  return {
    adapter: deps.adapters[venue],
    cred: await resolveCredential(deps.store, deps.secrets, task.owner, venue, {
      logger: deps.logger,
      now,
    }),
    market: marketOf(task, leg),
    pairedWithLighter: venueOf(
      task,
      leg === 'long' ? 'short' : 'long',
    ).startsWith('lighter'),
  }
}

/** When a send may still land: its deadline, or the operation's (old states). */
function sendDeadline(op: TaskOperation, order: LegOrder): number | null {
  if (order.sendBy === undefined) {
    return Date.parse(op.startedAt) + SEND_WINDOW_MS
  }
  return order.sendBy === null ? null : Date.parse(order.sendBy)
}

/**
 * Looks up every `sending` leg of an operation found after a restart or a
 * failed round, by its client order id. A leg the venue has is taken from
 * it. A leg it does not have is sent again only when no earlier send can
 * still land: it was never sent, or its signed deadline has passed by
 * the margin of `NEVER_PLACED_AFTER_MS`. Such legs get a new deadline
 * (`sendBy`), which the caller saves before sending them.
 * @returns the operation, the legs to send, and why the others wait
 */
export async function lookUpLegs(
  op: TaskOperation,
  io: Readonly<Partial<Record<Leg, LegIo>>>,
  now: number,
): Promise<{ op: TaskOperation; resend: Leg[]; waiting: string[] }> {
  const waiting: string[] = []
  const resend: Leg[] = []
  const legs = { ...op.legs }
  await Promise.all(
    (Object.keys(legs) as Leg[]).map(async (leg) => {
      const order = legs[leg]
      const ctx = io[leg]
      if (!order || order.state === 'done' || !ctx) return
      let seen: VenueOrder | null
      try {
        seen = await ctx.adapter.order(
          ctx.cred,
          ctx.market,
          order.clientOrderId,
        )
      } catch (err) {
        if (!(err instanceof VenueUnavailableError)) throw err
        waiting.push(`${ctx.adapter.venue}: ${err.message}`)
        return
      }
      if (seen) {
        legs[leg] = fromVenue(order, seen)
        return
      }
      const deadline = sendDeadline(op, order)
      if (
        deadline !== null &&
        now <= deadline + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS
      ) {
        // an earlier send may still land: sending again could double it
        waiting.push(
          `${ctx.adapter.venue}: waiting for the send window of ${order.clientOrderId} to close`,
        )
        return
      }
      legs[leg] = { ...order, sendBy: msToIso(now + SEND_WINDOW_MS) }
      resend.push(leg)
    }),
  )
  return { op: { ...op, legs }, resend, waiting }
}

/**
 * Sends the given legs, each valid until its `sendBy`, which the caller
 * has saved. Refused: done and failed. Not sent (VenueUnavailableError):
 * `sendBy` cleared, so the next round may send it again at once. Maybe
 * sent (UncertainSubmissionError): stays `sending` until looked up.
 * @returns the operation with updated legs, and what could not be reached
 */
export async function sendLegs(
  op: TaskOperation,
  io: Readonly<Partial<Record<Leg, LegIo>>>,
  which: readonly Leg[],
): Promise<{ op: TaskOperation; unreachable: string[] }> {
  const unreachable: string[] = []
  const legs = { ...op.legs }
  await Promise.all(
    which.map(async (leg) => {
      const order = legs[leg]
      const ctx = io[leg]
      if (!order || order.state === 'done' || !ctx) return
      const deadline = sendDeadline(op, order)
      try {
        const placed = await ctx.adapter.place(ctx.cred, {
          market: ctx.market,
          side: order.side,
          size: order.size,
          price: order.price,
          timeInForce: 'ioc',
          reduceOnly: order.reduceOnly,
          clientOrderId: order.clientOrderId,
          pairedWithLighter: ctx.pairedWithLighter,
          ...(deadline === null ? {} : { validUntil: deadline }),
        })
        legs[leg] = fromVenue(order, placed)
      } catch (err) {
        if (err instanceof VenueRejectedError) {
          legs[leg] = { ...order, state: 'done', failed: err.reason }
        } else if (err instanceof VenueUnavailableError) {
          // nothing left: the next round may send it again at once
          legs[leg] = { ...order, sendBy: null }
          unreachable.push(`${ctx.adapter.venue}: ${err.message}`)
        } else if (err instanceof UncertainSubmissionError) {
          // stays `sending` with its deadline: looked up, not resent
          unreachable.push(`${ctx.adapter.venue}: ${err.message}`)
        } else {
          throw err
        }
      }
    }),
  )
  return { op: { ...op, legs }, unreachable }
}

/** The legs of an operation still `sending`. */
export function sendingLegs(op: TaskOperation): Leg[] {
  return (Object.keys(op.legs) as Leg[]).filter(
    (l) => op.legs[l]?.state === 'sending',
  )
}

export function allDone(op: TaskOperation): boolean {
  return Object.values(op.legs).every((l) => l?.state === 'done')
}
