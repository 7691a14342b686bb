import { createHash } from 'node:crypto'
import type { OrderSide } from '../domain/perpOrder.js'
import { venueProtectionPrice } from '../domain/protectionPrice.js'
import { SEND_WINDOW_MS, sendWindowOf } from '../domain/sendWindow.js'
import type { TaskRecord } from '../domain/task.js'
import type { Leg, LegOrder, TaskOperation } from '../domain/taskEngineState.js'
import { venueOrderFills } from '../domain/venueOrderFills.js'
import {
  isFinalAttempt,
  READY_ATTEMPT,
  type VenueOrderAttempt,
} from '../domain/venueOrderMachine.js'
import {
  VenueOrderTransitionError,
  venueOrderTransition,
} from '../domain/venueOrderTransition.js'
import type { MarketQuote, MarketRules } from '../ports/marketData.js'
import type { VenueOrder } from '../ports/venueAdapter.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import { workerCredential } from './resolveCredential.js'
import {
  reconcileVenueOrder,
  submitVenueOrder,
  type VenueOrderIo,
} from './venueOrders.js'
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

/** The base size a task has booked on a leg ('0' before it opened). */
export function legSize(task: TaskRecord, leg: Leg): string {
  return (leg === 'long' ? task.longSize : task.shortSize) ?? '0'
}

/** A leg's booked size as the venue nets it: long positive, short negative. */
export function signedLegSize(task: TaskRecord, leg: Leg): Decimal {
  return signedLegBase(leg, legSize(task, leg))
}

/**
 * `base` of a leg as the venue nets it: long positive, short negative
 * (and a net part back on the leg's own side: the sign is its own inverse)
 */
export function signedLegBase(leg: Leg, base: string): Decimal {
  return dec(base).mul(leg === 'long' ? 1 : -1)
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

/**
 * A leg order's venue attempt: `sending` with a deadline is committed and
 * maybe sent; `sending` with `sendBy` null has nothing in flight. States
 * saved before deadlines existed count the operation's start.
 */
function legAttempt(op: TaskOperation, order: LegOrder): VenueOrderAttempt {
  const sendBy =
    order.sendBy === undefined
      ? Date.parse(op.startedAt) + SEND_WINDOW_MS
      : order.sendBy === null
        ? null
        : Date.parse(order.sendBy)
  return {
    ...READY_ATTEMPT,
    status:
      order.state === 'done'
        ? order.failed === null
          ? 'filled'
          : 'rejected'
        : sendBy === null
          ? 'ready'
          : 'sending',
    sendBy,
    reason: order.failed,
  }
}

/**
 * The leg once the venue showed `v`, which moved its attempt to `next`;
 * a final one with the builder fee its fills paid at `ctx`'s rate.
 */
function fromVenue(
  order: LegOrder,
  next: VenueOrderAttempt,
  v: VenueOrder,
  ctx: LegIo,
): LegOrder {
  // the rule every venue order's answer is recorded by
  const fills = venueOrderFills(order, v)
  const filled = dec(fills.filledBase)
  const final = isFinalAttempt(next)
  const averagePrice = fills.averagePrice
  const rate = ctx.adapter.builderFeeRate?.(ctx.pairedWithLighter) ?? '0'
  return {
    ...order,
    state: final ? 'done' : 'sending',
    filledBase: decString(filled),
    averagePrice,
    venueOrderId: v.venueOrderId,
    ...(final && averagePrice !== null
      ? {
          builderFeeUsd: decString(
            filled.mul(averagePrice).mul(rate).toDecimalPlaces(8),
          ),
          ...(v.feeUsd === undefined ? {} : { venueFeeUsd: v.feeUsd }),
        }
      : {}),
    failed:
      final && filled.isZero()
        ? (v.reason ?? `${v.venueStatus}: nothing filled`)
        : null,
    ...(final && filled.isZero() && v.state === 'rejected'
      ? { refused: true }
      : {}),
  }
}

/** A leg's account market at its venue. */
export interface LegIo extends VenueOrderIo {
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
    cred: await workerCredential(deps, task.owner, venue, now),
    market: marketOf(task, leg),
    pairedWithLighter: venueOf(
      task,
      leg === 'long' ? 'short' : 'long',
    ).startsWith('lighter'),
  }
}

/**
 * Looks up every `sending` leg of an operation found after a restart or a
 * failed round, by its client order id. A leg the venue has is taken from
 * it. A leg it does not have is sent again only when no earlier send can
 * still land (`venueOrderMachine`: it was never sent, or the never-placed
 * rule holds, by the venue's clock where the lookup tells it). Such legs get a new deadline (`sendBy`), which the caller
 * saves before sending them.
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
      const attempt = legAttempt(op, order)
      const found = await reconcileVenueOrder(ctx, order.clientOrderId, {
        attempt,
        now,
      })
      if (found.type === 'unreachable') {
        // not answered (down, or timed out): asked again, as for a
        // direct order
        waiting.push(`${ctx.adapter.venue}: ${found.error.message}`)
        return
      }
      if (found.type === 'seen') {
        const next = venueOrderTransition(attempt, found)
        legs[leg] = fromVenue(order, next, found.order, ctx)
        return
      }
      // a leg saved before deadlines existed was signed with the adapter's
      // own: only our clock's allowance is known to cover it
      const next = venueOrderTransition(
        attempt,
        order.sendBy === undefined
          ? { type: 'notSeen', now }
          : { ...found, now },
      )
      if (next.status !== 'ready') {
        // an earlier send may still land: sending again could double it
        waiting.push(
          `${ctx.adapter.venue}: waiting for the send window of ${order.clientOrderId} to close`,
        )
        return
      }
      const sending = venueOrderTransition(next, {
        type: 'committed',
        now,
        windowMs: sendWindowOf(ctx.adapter),
      })
      legs[leg] = { ...order, sendBy: msToIso(sending.sendBy ?? now) }
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
  now: () => number,
): Promise<{ op: TaskOperation; unreachable: string[] }> {
  const unreachable: string[] = []
  const legs = { ...op.legs }
  await Promise.all(
    which.map(async (leg) => {
      const order = legs[leg]
      const ctx = io[leg]
      if (!order || order.state === 'done' || !ctx) return
      const attempt = legAttempt(op, order)
      if (attempt.status !== 'sending') {
        // only a committed leg (its deadline saved) may go out
        throw new VenueOrderTransitionError(attempt.status, 'placed')
      }
      const sent = await submitVenueOrder(
        ctx,
        {
          side: order.side,
          size: order.size,
          price: order.price,
          timeInForce: 'ioc',
          reduceOnly: order.reduceOnly,
          clientOrderId: order.clientOrderId,
          pairedWithLighter: ctx.pairedWithLighter,
          ...(attempt.sendBy === null ? {} : { validUntil: attempt.sendBy }),
        },
        now,
      )
      const next = venueOrderTransition(attempt, sent)
      switch (sent.type) {
        case 'placed':
          legs[leg] = fromVenue(order, next, sent.order, ctx)
          break
        case 'rejected':
          legs[leg] = {
            ...order,
            state: 'done',
            failed: sent.reason,
            refused: true,
          }
          break
        case 'notSent':
          // nothing left: the next round may send it again at once
          legs[leg] = { ...order, sendBy: null }
          unreachable.push(`${ctx.adapter.venue}: ${sent.error.message}`)
          break
        case 'uncertain':
          // stays `sending` with its deadline: looked up, not resent. An
          // error the adapter does not classify is the same (something
          // may have gone out), as for a direct order
          unreachable.push(`${ctx.adapter.venue}: ${errorMessage(sent.error)}`)
          break
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
