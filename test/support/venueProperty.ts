import {
  type PerpOrderRecord,
  type Store,
  type TaskRecord,
  TERMINAL_ORDER_STATUSES,
  TERMINAL_TASK_STATUSES,
  VENUES,
  type VenueId,
} from '@dn/core'
import { lighterClientOrderIndex } from '@dn/venues'
import type { SimVenues } from '@dn/venues/sim'

/**
 * What a run left, to be held to the property at the venues: the fakes'
 * engines (their own state, not dn's API), and what dn recorded.
 */
export interface PropertyWorld {
  readonly sim: SimVenues
  /** what `countOffers` counted */
  readonly offers: VenueOffers
  readonly store: Store
  /** every task and direct order the run had accepted (ids) */
  readonly taskIds: readonly string[]
  readonly orderIds: readonly string[]
  /** dn API answers that were a 5xx other than a 503 with a JSON body */
  readonly apiFailures: readonly string[]
  /** how many answers of dn's API were looked at */
  apiCalls(): number
  /** processes that ended other than as the run ended them */
  readonly processFailures: readonly string[]
  /** how many processes were watched */
  processes(): number
}

/**
 * Per venue, how often each client order id was offered to its engine
 * from the first offer it took on: 1 once taken, more when offered again.
 */
export type VenueOffers = ReadonlyMap<VenueId, ReadonlyMap<string, number>>

/**
 * Counts the orders each engine takes, through any protocol fake, and
 * every offer of a client order id after one it took, refused or not: the
 * engines refuse a client order id they hold, where a venue may take it
 * again once the first is no longer open (Aster's `newClientOrderId` is
 * unique among open orders), so a second offer is what the property
 * forbids. An offer the engine refused (a minimum, margin) before any
 * took it is not counted: the venue holds nothing, and sending it again
 * with the same id once proven never placed is what dn should do (the
 * long run found a resize leg refused for HL's $10 minimum, its answer
 * lost, proven never placed and sent again: refused twice, taken never).
 */
export function countOffers(sim: SimVenues): VenueOffers {
  const offers = new Map<VenueId, Map<string, number>>()
  for (const v of VENUES) {
    const seen = new Map<string, number>()
    offers.set(v, seen)
    const x = sim.exchanges[v]
    const place = x.place.bind(x)
    ;(x as { place: typeof place }).place = (owner, o, fee) => {
      const taken = seen.get(o.clientOrderId)
      // offered again after the engine took it: counted, refused or not
      if (taken !== undefined) seen.set(o.clientOrderId, taken + 1)
      const placed = place(owner, o, fee)
      if (taken === undefined) seen.set(o.clientOrderId, 1)
      return placed
    }
  }
  return offers
}

/** The venue's key of a client order id (Lighter keys account and index). */
function engineOrderKey(
  sim: SimVenues,
  venue: VenueId,
  owner: string,
  clientOrderId: string,
): string {
  return venue.startsWith('lighter')
    ? `lighter:${sim.exchanges[venue].accountIndex(owner)}:${lighterClientOrderIndex(clientOrderId)}`
    : clientOrderId
}

const num = (s: string | null | undefined) => Number(s ?? '0')

/**
 * A direct order's status as the venue's order state can back it. The
 * engine cuts a reduce-only order down to the position it reduces and
 * calls it filled, where dn (asked for more) sees an IOC remainder
 * cancelled: the fills compare them.
 */
function agrees(o: PerpOrderRecord, venueState: string | null): boolean {
  switch (o.status) {
    case 'filled':
      return venueState === 'filled'
    case 'cancelled':
    case 'expired':
      // cancelled there (on request or past its deadline), or never sent
      return (
        venueState === 'cancelled' ||
        venueState === null ||
        (o.reduceOnly && venueState === 'filled')
      )
    case 'rejected':
      return venueState === 'rejected' || venueState === null
    default:
      return venueState !== 'filled' && venueState !== 'cancelled'
  }
}

/** The loaded records of a run. */
export async function loadRecords(world: PropertyWorld): Promise<{
  tasks: TaskRecord[]
  orders: PerpOrderRecord[]
}> {
  const tasks = (await Promise.all(
    world.taskIds.map((id) => world.store.tasks.get(id)),
  )) as TaskRecord[]
  const orders = (await Promise.all(
    world.orderIds.map((id) => world.store.orders.get(id)),
  )) as PerpOrderRecord[]
  return { tasks, orders }
}

/** Everything that can move by itself has: tasks and orders are at rest. */
export async function atRest(world: PropertyWorld): Promise<boolean> {
  const { tasks, orders } = await loadRecords(world)
  return (
    tasks.every(
      (t) =>
        t.status === 'running' || TERMINAL_TASK_STATUSES.includes(t.status),
    ) && orders.every((o) => TERMINAL_ORDER_STATUSES.includes(o.status))
  )
}

/**
 * The property a user trusts with money, checked at the venues once a run
 * has settled (faults off, the window passed): each violation in words,
 * naming the client order id, task or order it is about.
 * - no venue was sent a client order id twice (`countOffers`)
 * - every terminal task holds nothing at its venues, every running task's
 *   legs are the venues' positions (each owner's task markets are its
 *   tasks' alone)
 * - every direct order is final, and its status and filled size are the
 *   venue's
 * - no task is left between states (pending, resizing, closing)
 * - dn's API answered no 5xx but its documented 503s; no process failed
 */
export async function checkVenueProperty(
  world: PropertyWorld,
): Promise<string[]> {
  return (await tallyVenueProperty(world)).violations
}

/** Each check of the property: what it looked at, and what broke it. */
const PROPERTY_CHECKS = [
  'sent once',
  'task legs at the venues',
  'tasks at rest',
  'orders final',
  'order status as the venue',
  'order fills as the venue',
  'API answers',
  'processes',
] as const

export type PropertyCheck = (typeof PROPERTY_CHECKS)[number]

export interface PropertyTally {
  readonly violations: string[]
  /** per check: items looked at, and violations found */
  readonly checks: Record<PropertyCheck, { checked: number; failed: number }>
}

/** checkVenueProperty, with what each check looked at and found. */
export async function tallyVenueProperty(
  world: PropertyWorld,
): Promise<PropertyTally> {
  const { sim } = world
  const violations: string[] = []
  const checks = Object.fromEntries(
    PROPERTY_CHECKS.map((c) => [c, { checked: 0, failed: 0 }]),
  ) as PropertyTally['checks']
  const look = (check: PropertyCheck, n = 1) => {
    checks[check].checked += n
  }
  const fail = (check: PropertyCheck, text: string) => {
    checks[check].failed++
    violations.push(text)
  }
  const { tasks, orders } = await loadRecords(world)
  const cloidOf = new Map<string, string>()
  for (const o of orders) {
    cloidOf.set(
      engineOrderKey(sim, o.venue, o.owner, o.clientOrderId),
      o.clientOrderId,
    )
  }
  for (const [v, seen] of world.offers) {
    for (const [key, n] of seen) {
      look('sent once')
      if (n > 1) {
        const cloid = cloidOf.get(key) ?? key
        fail('sent once', `${v} was sent client order id ${cloid} ${n} times`)
      }
    }
  }

  // what each owner's account markets should hold: its ledger's sum, the
  // running tasks' legs and the direct orders' fills together
  const expected = new Map<string, { size: number; tasks: string[] }>()
  const want = (owner: string, venue: VenueId, market: string) => {
    const k = `${owner}|${venue}|${market}`
    let e = expected.get(k)
    if (!e) {
      e = { size: 0, tasks: [] }
      expected.set(k, e)
    }
    return e
  }
  for (const t of tasks) {
    look('tasks at rest')
    const long = want(t.owner, t.longVenue, t.longMarket)
    const short = want(t.owner, t.shortVenue, t.shortMarket)
    long.tasks.push(`${t.id} ${t.status}`)
    short.tasks.push(`${t.id} ${t.status}`)
    if (t.status === 'running') {
      long.size += num(t.longSize)
      short.size -= num(t.shortSize)
    } else if (TERMINAL_TASK_STATUSES.includes(t.status)) {
      // what a close left at the venue, below its smallest order, noted
      // on the task: part of the net no holder accounts for
      const left = t.engineState?.leftAtVenue
      long.size += num(left?.long)
      short.size -= num(left?.short)
    }
    if (t.status !== 'running' && !TERMINAL_TASK_STATUSES.includes(t.status)) {
      fail(
        'tasks at rest',
        `task ${t.id} left ${t.status} (${t.error ?? 'no error'})`,
      )
    }
  }
  for (const o of orders) {
    const filled = num(o.filledBase)
    if (filled === 0) continue
    const e = want(o.owner, o.venue, o.market)
    e.size += o.side === 'long' ? filled : -filled
    if (!e.tasks.includes('direct orders')) e.tasks.push('direct orders')
  }
  for (const [k, e] of expected) {
    const [owner, venue, market] = k.split('|') as [string, VenueId, string]
    look('task legs at the venues')
    const held = num(
      sim.exchanges[venue].positions(owner).find((p) => p.market === market)
        ?.size,
    )
    if (Math.abs(held - e.size) > 1e-9) {
      // the venue's fills on that market, and the tasks' books, to debug
      const fills = sim.exchanges[venue]
        .fills(owner, 0)
        .filter((f) => f.market === market)
        .map((f) => `${f.time} ${f.clientOrderId} ${f.side} ${f.size}`)
      const books = tasks
        .filter((t) => e.tasks.some((x) => x.startsWith(t.id)))
        .map((t) =>
          JSON.stringify({
            id: t.id,
            status: t.status,
            closeReason: t.closeReason,
            error: t.error,
            longSize: t.longSize,
            shortSize: t.shortSize,
            engine: t.engineState,
          }),
        )
      fail(
        'task legs at the venues',
        `${venue} ${market} of ${owner} holds ${held} where its tasks and direct orders hold ${e.size} (${e.tasks.join(', ')})\n      fills: ${fills.join('; ')}\n      tasks: ${books.join('; ')}`,
      )
    }
  }

  for (const o of orders) {
    const key = engineOrderKey(sim, o.venue, o.owner, o.clientOrderId)
    const seen = sim.exchanges[o.venue].order(o.owner, key, o.market)
    const what = `order ${o.id} (${o.venue} ${o.clientOrderId})`
    look('orders final')
    look('order status as the venue')
    look('order fills as the venue')
    if (!TERMINAL_ORDER_STATUSES.includes(o.status)) {
      fail(
        'orders final',
        `${what} left ${o.status} (${o.error ?? 'no error'})`,
      )
    }
    if (!agrees(o, seen?.state ?? null)) {
      const record = JSON.stringify({
        type: o.orderType,
        tif: o.timeInForce,
        reduceOnly: o.reduceOnly,
        filledBase: o.filledBase,
        venueStatus: o.venueStatus,
        error: o.error,
        cancelRequestedAt: o.cancelRequestedAt,
        expiresAt: o.expiresAt,
        submittedAt: o.submittedAt,
        observedAt: o.observedAt,
        updatedAt: o.updatedAt,
      })
      fail(
        'order status as the venue',
        `${what} is ${o.status} where the venue has ${seen?.state} (${seen?.filledBase} filled, ${seen?.venueStatus}): ${record}`,
      )
    }
    if (num(o.filledBase) > 0 && !seen) {
      fail(
        'order fills as the venue',
        `${what} filled ${o.filledBase} the venue never had`,
      )
    }
    if (seen && num(seen.filledBase) !== num(o.filledBase)) {
      fail(
        'order fills as the venue',
        `${what} filled ${o.filledBase} where the venue filled ${seen.filledBase}`,
      )
    }
  }
  look('API answers', world.apiCalls())
  for (const f of world.apiFailures) fail('API answers', f)
  look('processes', world.processes())
  for (const f of world.processFailures) fail('processes', f)
  return { violations, checks }
}
