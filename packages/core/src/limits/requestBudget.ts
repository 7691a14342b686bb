import { RequestBudgetError } from '../errors/venue.js'
import type { Clock } from '../ports/clock.js'
import { systemClock } from '../ports/clock.js'
import { REQUEST_PRIORITIES, type RequestPriority } from './requestPriority.js'
import {
  createSharedGrants,
  type GrantNeed,
  type SharedGrantsOptions,
} from './sharedGrants.js'
import {
  type LogEntry,
  pruneLog,
  usedWeight,
  waitToFit,
} from './weightedLog.js'

export { REQUEST_PRIORITIES, type RequestPriority }

/**
 * Share of the budget each priority may fill. Reads stop short of the
 * whole budget, so what they leave is always there for orders: a read
 * never delays an order send.
 */
export const PRIORITY_CEILING: Readonly<Record<RequestPriority, number>> = {
  order: 1,
  urgent: 0.9,
  // as urgent, served after it: a person binding waits behind a task's
  // liquidation guard, not behind monitoring
  interactive: 0.9,
  routine: 0.75,
  // as routine, and served after it: waiters are served most urgent first
  // and a bucket a routine read waits on is not given to history. Below
  // routine's ceiling, history got only what monitoring left under 60 %
  // of the share, which at 100 Hyperliquid accounts read every 25 s was
  // nothing: funding an hour old went unbooked for minutes (the scale
  // bench at 09:00)
  history: 0.75,
}

/** See RequestBudgetOptions.deliveryMarginMs. */
export const DEFAULT_DELIVERY_MARGIN_MS = 2_000

/**
 * How long a read an HTTP caller waits on may wait for budget: the
 * caller's own timeout (the client's is 10 s) must cover the wait, the
 * venue's answer and a prepare's reads at several venues. Room further
 * off is answered at once, with when it comes (Retry-After).
 */
export const INTERACTIVE_MAX_WAIT_MS = 5_000

/** How long a request may wait for budget before it fails unsent. */
const DEFAULT_MAX_WAIT_MS: Readonly<Record<RequestPriority, number>> = {
  order: 15_000,
  urgent: 10_000,
  interactive: INTERACTIVE_MAX_WAIT_MS,
  routine: 5_000,
  history: 5_000,
}

/** A published limit as the budget counts it. */
export interface BudgetLimit {
  readonly id: string
  /** published units per window */
  readonly capacity: number
  readonly windowMs: number
}

/** Weight counted in one bucket of one limit (per IP or per account). */
export interface BudgetCharge {
  readonly limit: string
  readonly bucket: string
  readonly weight: number
}

export interface BucketUsage {
  readonly limit: string
  readonly bucket: string
  /** weight counted in the current window */
  readonly used: number
  /** the most weight ever counted in one window */
  readonly peak: number
  /** the budget's ceiling for orders (share × capacity) */
  readonly ceiling: number
  readonly requests: number
}

export interface RequestBudget {
  /** Published limits this budget keeps under `share`. */
  limits(): readonly BudgetLimit[]
  /**
   * The weight of `limit` requests of `priority` may fill per minute in one
   * bucket (share × capacity × the priority's ceiling, over the window);
   * undefined when the budget keeps no such limit.
   */
  perMinute(limit: string, priority: RequestPriority): number | undefined
  /** The venue published new limits (e.g. Aster's exchangeInfo): use them. */
  setLimits(limits: readonly BudgetLimit[]): void
  /**
   * Waits until every charge fits under its priority's ceiling, then
   * counts it. Fails with RequestBudgetError (nothing sent; its
   * `retryAfterMs` says when there is room) when the budget stays spent
   * past `maxWaitMs`, or while the venue has told us to back off beyond
   * it: at once when that is known on arrival, since waiting would not
   * change it.
   */
  acquire(
    charges: readonly BudgetCharge[],
    priority: RequestPriority,
    options?: { readonly maxWaitMs?: number | undefined },
  ): Promise<void>
  /** Counts weight learnt from an answer (e.g. per 20 items returned). */
  add(charges: readonly BudgetCharge[]): void
  /**
   * The venue said this much of `limit` is used in `bucket` (a used-weight
   * header): weight other processes on the same IP spent is counted too.
   */
  observe(limit: string, bucket: string, used: number): void
  /** The venue refused for rate (429/418): send nothing for `forMs`. */
  holdOff(forMs: number, reason: string): void
  /** Why and until when nothing is sent, or null. */
  heldOff(): { readonly until: number; readonly reason: string } | null
  usage(): BucketUsage[]
}

export interface RequestBudgetOptions {
  /** what the requests are for, in error messages (e.g. `hl`) */
  readonly name: string
  readonly limits: readonly BudgetLimit[]
  /** fraction of each published limit this process may use @default 0.5 */
  readonly share?: number | undefined
  readonly clock?: Clock | undefined
  /**
   * ms each spend is held beyond the limit's window: a venue counts a
   * request when it arrives, which can be well after we counted it (a
   * process short of CPU, a slow connection), so two requests a window
   * apart here may land in one window there. @default 2_000
   */
  readonly deliveryMarginMs?: number | undefined
  /**
   * Shares the budget with every process of a deployment through the
   * store: weight is reserved there in chunks before it is spent here
   * @default this process's own budget
   */
  readonly shared?: SharedGrantsOptions | undefined
  /** where a failing shared store is reported @default ignored */
  readonly onSharedError?: ((err: unknown) => void) | undefined
  /**
   * The venue refused for rate and nothing is sent for `forMs`: an
   * operator should see it (a log line) @default ignored
   */
  readonly onHoldOff?:
    | ((event: { name: string; forMs: number; reason: string }) => void)
    | undefined
}

interface Bucket {
  limit: BudgetLimit
  entries: LogEntry[]
  peak: number
  requests: number
}

interface Waiter {
  readonly charges: readonly BudgetCharge[]
  readonly priority: RequestPriority
  readonly seq: number
  readonly deadline: number
  readonly resolve: () => void
  readonly reject: (e: Error) => void
}

/**
 * A venue's request budget for one process: an exact weighted sliding log
 * per bucket, filled by priority (orders first, funding history last) up
 * to `share` of each published limit. Waiters are served most urgent
 * first; a bucket a more urgent waiter is waiting on is not given to a
 * less urgent one.
 * @example
 * const budget = createRequestBudget({ name: 'hl',
 *   limits: [{ id: 'weight', capacity: 1200, windowMs: 60_000 }] })
 * await budget.acquire([{ limit: 'weight', bucket: 'weight', weight: 20 }], 'routine')
 */
export function createRequestBudget(
  options: RequestBudgetOptions,
): RequestBudget {
  const clock = options.clock ?? systemClock
  const share = options.share ?? 0.5
  if (!(share > 0 && share <= 1)) {
    throw new RangeError(`budget share must be in (0, 1]: ${share}`)
  }
  const limits = new Map(options.limits.map((l) => [l.id, l]))
  const margin = options.deliveryMarginMs ?? DEFAULT_DELIVERY_MARGIN_MS
  /** how long a spend counts: the limit's window and the delivery margin */
  const span = (l: BudgetLimit) => l.windowMs + margin
  const buckets = new Map<string, Bucket>()
  const waiters: Waiter[] = []
  let seq = 0
  let hold: { until: number; reason: string } | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const grants =
    options.shared &&
    createSharedGrants(
      options.shared,
      () => pump(),
      options.onSharedError ?? (() => {}),
    )

  function bucketOf(c: BudgetCharge): Bucket {
    let b = buckets.get(c.bucket)
    if (!b) {
      const limit = limits.get(c.limit)
      if (!limit) {
        throw new RangeError(`${options.name}: unknown limit ${c.limit}`)
      }
      b = { limit, entries: [], peak: 0, requests: 0 }
      buckets.set(c.bucket, b)
    }
    return b
  }

  const ceilingOf = (b: Bucket, p: RequestPriority) =>
    Math.floor(b.limit.capacity * share * PRIORITY_CEILING[p])

  function needs(
    charges: readonly BudgetCharge[],
    priority: RequestPriority,
  ): GrantNeed[] {
    return charges.map((c) => {
      const b = bucketOf(c)
      return {
        bucket: c.bucket,
        windowMs: span(b.limit),
        ceiling: ceilingOf(b, priority),
        weight: c.weight,
      }
    })
  }

  function count(charges: readonly BudgetCharge[], now: number): void {
    for (const c of charges) {
      const b = bucketOf(c)
      b.entries = pruneLog(b.entries, now, span(b.limit))
      b.entries.push({ at: now, weight: c.weight })
      b.requests++
      b.peak = Math.max(b.peak, usedWeight(b.entries, now, span(b.limit)))
    }
  }

  /** ms until every charge fits under its ceiling (0: now). */
  function waitFor(w: Omit<Waiter, 'resolve' | 'reject' | 'seq'>, now: number) {
    let wait = hold && hold.until > now ? hold.until - now : 0
    for (const c of w.charges) {
      const b = bucketOf(c)
      const ceiling = ceilingOf(b, w.priority)
      wait = Math.max(
        wait,
        waitToFit(b.entries, now, span(b.limit), ceiling, c.weight),
      )
    }
    // what this process may spend, the deployment's shared budget grants
    if (wait === 0 && grants) {
      wait = grants.waitMs(needs(w.charges, w.priority), w.priority, now)
    }
    return wait
  }

  function pump(): void {
    if (timer) {
      clearTimeout(timer)
      timer = undefined
    }
    const now = clock.now()
    waiters.sort(
      (a, b) =>
        REQUEST_PRIORITIES.indexOf(a.priority) -
          REQUEST_PRIORITIES.indexOf(b.priority) || a.seq - b.seq,
    )
    const blocked = new Set<string>()
    let next = Number.POSITIVE_INFINITY
    for (const w of [...waiters]) {
      const mine = w.charges.map((c) => c.bucket)
      const wait = waitFor(w, now)
      if (now + wait > w.deadline) {
        // not even alone would it be sent in time
        waiters.splice(waiters.indexOf(w), 1)
        w.reject(spent(w, now, wait))
        continue
      }
      // a bucket a more urgent (or earlier) waiter waits on is kept for it
      if (wait === 0 && !mine.some((b) => blocked.has(b))) {
        waiters.splice(waiters.indexOf(w), 1)
        grants?.spend(needs(w.charges, w.priority), w.priority, now)
        count(w.charges, now)
        w.resolve()
        continue
      }
      for (const b of mine) blocked.add(b)
      next = Math.min(next, wait > 0 ? wait : w.deadline - now)
    }
    if (waiters.length > 0) {
      const delay = Number.isFinite(next) ? Math.max(1, next) : 1_000
      timer = setTimeout(pump, delay)
      timer.unref?.()
    }
  }

  /** `wait`: ms until it would fit (Infinity: never, too heavy). */
  function spent(w: Waiter, now: number, wait: number): RequestBudgetError {
    const why =
      hold && hold.until > now
        ? `the venue asked us to back off (${hold.reason}) for ${Math.ceil((hold.until - now) / 1000)} s`
        : `its ${w.priority} request budget is spent`
    return new RequestBudgetError(
      `${options.name}: not sent, ${why}; retrying later`,
      Number.isFinite(wait) ? { retryAfterMs: wait } : {},
    )
  }

  return {
    limits: () => [...limits.values()],
    perMinute(id, priority) {
      const l = limits.get(id)
      if (!l) return undefined
      return (
        (l.capacity * share * PRIORITY_CEILING[priority] * 60_000) / span(l)
      )
    },
    setLimits(next) {
      for (const l of next) limits.set(l.id, l)
      for (const b of buckets.values()) {
        b.limit = limits.get(b.limit.id) ?? b.limit
      }
      pump()
    },
    acquire(charges, priority, opts) {
      const now = clock.now()
      const maxWait = opts?.maxWaitMs ?? DEFAULT_MAX_WAIT_MS[priority]
      try {
        for (const c of charges) bucketOf(c)
      } catch (err) {
        return Promise.reject(err)
      }
      return new Promise<void>((resolve, reject) => {
        waiters.push({
          charges,
          priority,
          seq: seq++,
          deadline: now + maxWait,
          resolve,
          reject,
        })
        pump()
      })
    },
    add(charges) {
      const now = clock.now()
      grants?.record(needs(charges, 'order'), now)
      count(charges, now)
    },
    observe(limit, bucket, used) {
      const now = clock.now()
      const b = bucketOf({ limit, bucket, weight: 0 })
      const ours = usedWeight(b.entries, now, span(b.limit))
      if (used > ours) {
        b.entries.push({ at: now, weight: used - ours })
        b.peak = Math.max(b.peak, used)
      }
    },
    holdOff(forMs, reason) {
      const until = clock.now() + forMs
      if (!hold || until > hold.until) hold = { until, reason }
      options.onHoldOff?.({ name: options.name, forMs, reason })
      pump()
    },
    heldOff() {
      return hold && hold.until > clock.now() ? hold : null
    },
    usage() {
      const now = clock.now()
      return [...buckets].map(([bucket, b]) => ({
        limit: b.limit.id,
        bucket,
        used: usedWeight(b.entries, now, span(b.limit)),
        peak: b.peak,
        ceiling: ceilingOf(b, 'order'),
        requests: b.requests,
      }))
    },
  }
}
