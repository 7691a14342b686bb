import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import {
  perpOrderAttempt,
  perpOrderStatusOf,
} from '../domain/perpOrderAttempt.js'
import { sendWindowOf } from '../domain/sendWindow.js'
import { venueOrderFills } from '../domain/venueOrderFills.js'
import {
  cancelDue,
  isFinalAttempt,
  isLiveAttempt,
  lookupAtEdge,
  type NotSeenEvent,
  neverPlacedProvableAt,
  type VenueOrderAttempt,
  type VenueOrderEvent,
} from '../domain/venueOrderMachine.js'
import { venueOrderTransition } from '../domain/venueOrderTransition.js'
import { AppError } from '../errors/appError.js'
import { RequestBudgetError, VenueUnavailableError } from '../errors/venue.js'
import {
  CredentialUnavailableError,
  CredentialUnreadableError,
  FencedOutError,
} from '../errors/worker.js'
import type { PerpOrderPatch, Repos } from '../ports/store.js'
import type { VenueCredential, VenueOrder } from '../ports/venueAdapter.js'
import { errorMessage } from '../util/errorMessage.js'
import { msToIso } from '../util/time.js'
import { orderLock } from './accountMarketLock.js'
import { priceDirectOrder } from './priceDirectOrder.js'
import { reportWorkerEvent } from './reportWorkerEvent.js'
import { credentialErrorText, workerCredential } from './resolveCredential.js'
import { reconcileVenueOrder, submitVenueOrder } from './venueOrders.js'
import { type WorkerDeps, workerApiKey } from './workerDeps.js'

/** Statuses the order worker claims. */
export const ACTIVE_ORDER_STATUSES: readonly PerpOrderStatus[] = [
  'pending',
  'submitting',
  'open',
  'partially_filled',
  'unknown',
]

/** How often a resting order is polled. */
const POLL_MS = 1_000

/** Retry delay after a venue outage before anything was sent. */
const OUTAGE_RETRY_MS = 2_000

/**
 * How often an order at the venue is looked at while its credential is
 * unreadable: only a rebind changes that, and the step costs no venue call.
 */
const CREDENTIAL_WAIT_MS = 60_000

/** An account-market lock a step holds, released with its last write. */
interface HeldLock {
  readonly lock: string
  readonly holder: string
}

interface Step {
  readonly order: PerpOrderRecord
  readonly deps: WorkerDeps
  readonly now: number
  /**
   * Records `patch`, written with the lease's release at the end of the
   * step (one transaction): what the step learnt is lost only with the
   * worker, and the next claim learns it again from the venue.
   */
  save(patch: Omit<PerpOrderPatch, 'updatedAt'>): Promise<PerpOrderRecord>
  /** Writes `patch` (and what was saved before it) now: before a send. */
  saveNow(patch: Omit<PerpOrderPatch, 'updatedAt'>): Promise<PerpOrderRecord>
  /** The step holds this lock: released as its writes commit. */
  hold(lock: string, holder: string): void
  /** whether the step holds its lock */
  holds(): boolean
}

/**
 * Moves one claimed order forward (the caller holds its lease; every write
 * carries the lease's fence, and a lost lease stops the step with no venue
 * call after it). The lease is released at the end with the time the order
 * should be looked at again, in one transaction with what the step
 * learnt and the release of the account-market lock it took.
 *
 * Submission is two-phase: `submitting` (with the deterministic client
 * order id, size and price) is committed before the venue call. A claim
 * that finds an order still `submitting` therefore means a worker died
 * mid-send: the order becomes `unknown` and is reconciled by client order
 * id; it is never sent again.
 */
export async function processPerpOrder(
  deps: WorkerDeps,
  claimed: PerpOrderRecord,
  locked = false,
): Promise<PerpOrderRecord> {
  let order = claimed
  let staged: Omit<PerpOrderPatch, 'updatedAt'> = {}
  // assigned from the step (`hold`): typed so, the checks below see it
  let held = null as HeldLock | null
  const transition = (from: PerpOrderStatus, to: PerpOrderRecord) => {
    if (to.status === from) return
    reportWorkerEvent(deps, {
      type: 'transition',
      kind: 'order',
      id: to.id,
      venue: to.venue,
      from,
      to: to.status,
      ms: deps.clock.now() - step.now,
      error: to.error,
    })
  }
  // what is staged is written, and let go only once committed: a shared
  // commit that fails as a whole runs its members again
  const write = async (repos: Pick<WorkerDeps['store'], 'orders'>) => {
    const updated = await repos.orders.update(
      order.id,
      { ...staged, updatedAt: msToIso(deps.clock.now()) },
      { fence: claimed.fence },
    )
    if (!updated) throw new FencedOutError(`order ${order.id}`)
    return updated
  }
  // concurrent steps' writes share one commit
  const commit = async (fn: (tx: Repos) => Promise<PerpOrderRecord>) => {
    const updated = await deps.store.sharedTransaction(fn)
    staged = {}
    order = updated
    return updated
  }
  const step: Step = {
    deps,
    now: deps.clock.now(),
    get order() {
      return order
    },
    async save(patch) {
      const from = order.status
      staged = { ...staged, ...patch }
      order = { ...order, ...patch }
      transition(from, order)
      return order
    },
    async saveNow(patch) {
      const from = order.status
      staged = { ...staged, ...patch }
      const updated = await commit(write)
      transition(from, updated)
      return updated
    },
    hold(lock, holder) {
      held = { lock, holder }
    },
    holds: () => held !== null,
  }
  if (locked) {
    // the claim took the submission's lock: released with the step's
    // last write, or at once if it fails
    const { name, holder } = orderLock(deps.workerId, claimed)
    step.hold(name, holder)
  }
  try {
    const next = await advance(step)
    await step.save({
      leaseOwner: null,
      leaseExpiresAt: null,
      nextCheckAt: next === null ? null : msToIso(next),
    })
    const lock = held
    const done = await commit(async (tx) => {
      const updated = await write(tx)
      // the lock is released only once what it guarded is saved
      if (lock) await tx.locks.release(lock.lock, lock.holder)
      return updated
    })
    held = null
    return done
  } finally {
    // a step that failed (or lost its lease) gives its lock back at once
    if (held) {
      await deps.store.locks.release(held.lock, held.holder).catch(() => {})
    }
  }
}

/** @returns when to look again (ms), or null when the order is final */
async function advance(step: Step): Promise<number | null> {
  switch (step.order.status) {
    case 'pending':
      return submit(step)
    case 'submitting':
      // durable before the venue is asked: a worker that died mid-send is
      // a fact the order shows even if this look fails
      await step.saveNow({
        status: statusAfter(step.order, { type: 'uncertain' }),
        error:
          'the worker stopped while submitting; reconciling by client order id',
      })
      return reconcile(step)
    case 'unknown':
    case 'open':
    case 'partially_filled':
      return reconcile(step)
    default:
      return null
  }
}

/** The status `order` is stored with after `event`. */
function statusAfter(
  order: PerpOrderRecord,
  event: VenueOrderEvent,
): PerpOrderStatus {
  return perpOrderStatusOf(venueOrderTransition(perpOrderAttempt(order), event))
}

async function submit(step: Step): Promise<number | null> {
  const { deps, now } = step
  const order = step.order
  if (order.cancelRequestedAt !== null) {
    await step.save({
      status: statusAfter(order, { type: 'cancelRequested' }),
    })
    return null
  }
  if (now >= Date.parse(order.expiresAt)) {
    await step.save({
      status: statusAfter(order, { type: 'expired' }),
      error: 'the queue deadline passed before the order could be submitted',
    })
    return null
  }
  const refuse = async (reason: string) => {
    await step.save({
      status: statusAfter(step.order, { type: 'rejected', reason }),
      error: reason,
    })
    return null
  }
  // the lock first (unless the claim took it): an order waiting on another
  // operation's lock costs no read, of the store or the venue (its quote
  // is read once it holds the lock, then fresh)
  const iso = msToIso(now)
  if (!step.holds()) {
    const { name, holder } = orderLock(deps.workerId, order)
    if (!(await deps.store.locks.acquire(name, holder, iso, deps.leaseMs))) {
      // another operation on this account and market is in flight
      return now + 200
    }
    step.hold(name, holder)
  }
  const key = await workerApiKey(deps, order.apiKeyId)
  if (!key || key.revokedAt !== null) {
    return refuse('the API key was revoked before submission')
  }
  const adapter = deps.adapters[order.venue]
  let cred: VenueCredential
  try {
    cred = await workerCredential(deps, order.owner, order.venue, now)
  } catch (err) {
    return refuse(
      err instanceof CredentialUnavailableError
        ? credentialErrorText(err)
        : errorMessage(err),
    )
  }
  let plan: { size: string; price: string }
  try {
    plan = await priceDirectOrder(adapter, order, key.maxSizeUsd)
  } catch (err) {
    if (err instanceof VenueUnavailableError) {
      // nothing sent: no note on the order; the log says what held it
      deps.logger.debug?.(
        'order not priced (venue rules or quote unread); tried again',
        {
          workerId: deps.workerId,
          orderId: order.id,
          venue: order.venue,
          error: errorMessage(err),
        },
      )
      return now + OUTAGE_RETRY_MS
    }
    if (err instanceof AppError && err.code === 'order_rejected') {
      return refuse(err.message)
    }
    throw err
  }
  const sending = venueOrderTransition(perpOrderAttempt(order), {
    type: 'committed',
    now,
    windowMs: sendWindowOf(adapter),
  })
  await step.saveNow({
    status: perpOrderStatusOf(sending),
    requestedBase: plan.size,
    limitPrice: plan.price,
    submittedAt: iso,
    sendBy: sending.sendBy === null ? null : msToIso(sending.sendBy),
    error: null,
  })
  const sendAt = deps.clock.now()
  const sent = await submitVenueOrder(
    { adapter, cred, market: order.market },
    {
      side: order.side,
      size: plan.size,
      price: plan.price,
      timeInForce: order.orderType === 'market' ? 'ioc' : order.timeInForce,
      reduceOnly: order.reduceOnly,
      clientOrderId: order.clientOrderId,
      validUntil: sending.sendBy ?? undefined,
    },
    () => deps.clock.now(),
  )
  const next = venueOrderTransition(sending, sent)
  if (sent.type !== 'notSent') {
    reportWorkerEvent(deps, {
      type: 'venueSubmit',
      kind: 'order',
      id: order.id,
      venue: order.venue,
      acceptToVenueMs: sendAt - Date.parse(order.createdAt),
    })
  }
  switch (sent.type) {
    case 'placed':
      return apply(step, next, sent.order)
    case 'rejected':
      await step.save({
        status: perpOrderStatusOf(next),
        venueStatus: 'rejected',
        error: sent.reason,
        observedAt: msToIso(step.deps.clock.now()),
      })
      return null
    case 'notSent':
      // nothing reached the venue: the same client order id may go again
      deps.logger.warn?.('order not sent; it is tried again', {
        workerId: deps.workerId,
        orderId: order.id,
        venue: order.venue,
        error: errorMessage(sent.error),
      })
      await step.save({
        status: perpOrderStatusOf(next),
        submittedAt: null,
        sendBy: null,
        error: null,
      })
      return now + OUTAGE_RETRY_MS
    case 'uncertain':
      await step.save({
        status: perpOrderStatusOf(next),
        error: `submission outcome unknown (${errorMessage(sent.error)}); reconciling by client order id`,
      })
      return step.deps.clock.now() + POLL_MS
  }
}

/** Reads the venue's view and, when asked, cancels (by request or expiry). */
async function reconcile(step: Step): Promise<number | null> {
  const { deps, now } = step
  const order = step.order
  const adapter = deps.adapters[order.venue]
  let cred: VenueCredential
  try {
    cred = await workerCredential(deps, order.owner, order.venue, now)
  } catch (err) {
    if (!(err instanceof CredentialUnreadableError)) {
      await step.save({ error: errorMessage(err) })
      return now + 10 * POLL_MS
    }
    // the order is at the venue: it can be followed again only once the
    // venue is rebound (which this order does not block), so look rarely
    const error = credentialErrorText(err)
    if (order.error !== error) await step.save({ error })
    return now + CREDENTIAL_WAIT_MS
  }
  if (order.error?.startsWith(`${CredentialUnreadableError.code}: `)) {
    // rebound: the note about the old credential no longer holds
    await step.save({ error: null })
  }
  const io = { adapter, cred, market: order.market }
  let attempt = perpOrderAttempt(step.order)
  if (now >= Date.parse(order.expiresAt)) {
    attempt = venueOrderTransition(attempt, { type: 'expired' })
  }
  // our clock as the lookup goes (not as the step began): the never-placed
  // rule wants it past the edge when the venue is asked
  const asked = deps.clock.now()
  const atEdge = lookupAtEdge(attempt, asked, adapter.visibilityLagMs)
  if (atEdge !== null) return atEdge
  const found = await reconcileVenueOrder(io, order.clientOrderId, {
    attempt,
    now: asked,
  })
  if (found.type === 'unreachable') {
    // no note on the order (it says what the venue last showed); the log
    // says why its lookup got no answer
    deps.logger.debug?.('order lookup not answered; looked up again', {
      workerId: deps.workerId,
      orderId: order.id,
      venue: order.venue,
      error: errorMessage(found.error),
    })
    return now + unansweredWaitMs(found.error)
  }
  if (found.type === 'notSeen') {
    return notFound(step, attempt, { ...found, now: asked })
  }
  const seen = venueOrderTransition(attempt, found)
  const lookAt = await apply(step, seen, found.order)
  if (lookAt === null || !cancelDue(seen)) return lookAt
  const after = await reconcileVenueOrder(io, order.clientOrderId, {
    cancel: true,
  })
  if (after.type === 'seen') {
    return apply(step, venueOrderTransition(seen, after), after.order)
  }
  // the cancel is asked again in a second
  return now + POLL_MS
}

/** The longest a lookup our own budget refused waits to be asked again. */
const BUDGET_WAIT_MAX_MS = 15_000

/**
 * When a lookup that got no answer is asked again: in a second, or, when
 * the venue's budget refused it, once the budget says there is room. An
 * order asked again every second while the budget is spent takes the
 * room of the reads that would answer it (a Hyperliquid lookup is
 * `orderStatus` then `userFillsByTime`: the first spent, the second
 * refused, again and again).
 */
function unansweredWaitMs(error: unknown): number {
  if (error instanceof RequestBudgetError && error.retryAfterMs !== undefined) {
    return Math.min(BUDGET_WAIT_MAX_MS, Math.max(POLL_MS, error.retryAfterMs))
  }
  return POLL_MS
}

/** The venue has no such order (now): `event` says so. */
async function notFound(
  step: Step,
  attempt: VenueOrderAttempt,
  event: NotSeenEvent,
): Promise<number | null> {
  const { now } = step
  const order = step.order
  const next = venueOrderTransition(attempt, event)
  if (next.status === 'ready') {
    // never placed, and never will be: proven not delivered, so it goes
    // again with the same client order id while its queue deadline lets
    // it (the send ends it expired once that has passed)
    await step.save({
      status: perpOrderStatusOf(next),
      submittedAt: null,
      sendBy: null,
      venueStatus: null,
      error:
        'the venue never received the last send (not found after its send window closed); sending again',
      // the venue has never shown it: the next send's never-placed rule
      // must hold as the first's did
      observedAt: null,
    })
    return now
  }
  if (isFinalAttempt(next)) {
    // never placed, and nobody wants it any more (cancelled, expired)
    await step.save({
      status: perpOrderStatusOf(next),
      venueStatus: null,
      error:
        'the venue never received this order: not found after its send window closed',
      observedAt: msToIso(now),
    })
    return null
  }
  if (order.status !== 'unknown') {
    await step.save({
      status: perpOrderStatusOf(next),
      error: 'the venue no longer reports this order; reconciling',
    })
  }
  // "not found" can lag at venues: keep asking, half as often as the
  // send is old (1, 2, 3, 4.5, 7 s, …), and look again as soon as a lookup
  // could prove it never placed, so an order whose send never arrived
  // goes again within its queue deadline. An order the venue took shows
  // at the first lookups; one it never got is proven only then, and a
  // lookup a second until that moment (35 lookups on Lighter, about 10 on
  // Hyperliquid, each uncertain send) took the budget and the requests
  // other orders' sends and lookups needed (the venue-fault suite)
  const age = now - Date.parse(order.submittedAt ?? order.createdAt)
  const later = now + Math.min(60_000, Math.max(POLL_MS, age / 2))
  const provable = neverPlacedProvableAt(next, event)
  step.deps.logger.debug?.('order not found at the venue; looked up again', {
    workerId: step.deps.workerId,
    orderId: order.id,
    venue: order.venue,
    sendBy: next.sendBy === null ? null : msToIso(next.sendBy),
    venueTimeAtLeast:
      event.venueTimeAtLeast === undefined
        ? null
        : msToIso(event.venueTimeAtLeast),
    provableAt: provable === null ? null : msToIso(provable),
  })
  return provable === null
    ? later
    : Math.min(later, Math.max(now + POLL_MS, provable))
}

/** Records the venue's view `v`, which moved the order to `next`. */
async function apply(
  step: Step,
  next: VenueOrderAttempt,
  v: VenueOrder,
): Promise<number | null> {
  const order = step.order
  const fills = venueOrderFills(order, v)
  await step.save({
    status: perpOrderStatusOf(next),
    filledBase: fills.filledBase,
    averagePrice: fills.averagePrice,
    venueOrderId: v.venueOrderId,
    venueStatus: v.venueStatus,
    observedAt: msToIso(step.deps.clock.now()),
    error:
      v.state === 'rejected'
        ? v.reason
        : order.status === 'unknown'
          ? null
          : order.error,
  })
  return isLiveAttempt(next) ? restingLookAt(step.order, step.now) : null
}

/** The longest a resting order goes unread (see restingLookAt). */
const RESTING_POLL_MAX_MS = 5_000

/**
 * When a live order the venue shows is read again: every second at
 * first, then less often as it rests (a tenth of its age, at most 5 s),
 * and at its expiry at the latest, when it is cancelled. Each order is
 * its own lookup (Hyperliquid `orderStatus`, weight 2): a few dozen
 * resting orders read every second would ask more of a venue's budget
 * than monitoring and new orders leave them. A cancel request makes the
 * order due at once.
 */
function restingLookAt(order: PerpOrderRecord, now: number): number {
  const age = now - Date.parse(order.submittedAt ?? order.createdAt)
  const wait = Math.min(RESTING_POLL_MAX_MS, Math.max(POLL_MS, age / 10))
  return Math.max(
    now + POLL_MS,
    Math.min(now + wait, Date.parse(order.expiresAt)),
  )
}
