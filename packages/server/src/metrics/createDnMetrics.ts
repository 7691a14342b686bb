import type {
  Clock,
  RequestBudget,
  Store,
  WorkerEvent,
  WorkerObserver,
} from '@dn/core'
import { msToIso, workQueueStats } from '@dn/core'
import {
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client'

/** Latency buckets (seconds) from a loopback call to a slow venue. */
const LATENCY_BUCKETS = [
  0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
]
/** Accept → venue buckets (seconds): a queue wait can reach minutes. */
const ACCEPT_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]
/** a claim is meant to take milliseconds: finer at the low end */
const PICKUP_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300,
]

/**
 * Every metric of one process (`docs/metrics.md` lists them), in one
 * prom-client registry: `dn up` serves the API's and its worker's from
 * the same one. Counters and histograms are fed as things happen; the
 * queue and venue-budget gauges are read when Prometheus scrapes.
 */
export interface DnMetrics extends WorkerObserver {
  readonly registry: Registry
  /** The text exposition format of every metric, read now. */
  render(): Promise<{ contentType: string; text: string }>
  /** One answered API request (`route` is its template, or `unmatched`). */
  request(route: string, method: string, status: number, ms: number): void
  /** A 429 of ours (`service`, by route family) or a venue's (by venue). */
  rateLimited(source: 'service' | 'venue', scope: string): void
  /** One venue HTTP call: its status, or `error` when no answer came. */
  venueCall(
    venue: string,
    endpoint: string,
    status: number | 'error',
    ms: number,
  ): void
  /** Reads `budget`'s use at each scrape; `share` is DN_VENUE_BUDGET_SHARE. */
  watchBudget(venue: string, budget: RequestBudget, share: number): void
  /** Reads the work queues from `store` at each scrape. */
  watchQueues(store: Pick<Store, 'workQueue'>, clock: Clock): void
}

/** @example const metrics = createDnMetrics(); await metrics.render() */
export function createDnMetrics(): DnMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]

  const httpRequests = new Counter({
    name: 'dn_http_requests_total',
    help: 'API requests answered, by route template, method and status',
    labelNames: ['route', 'method', 'status'],
    registers,
  })
  const httpSeconds = new Histogram({
    name: 'dn_http_request_duration_seconds',
    help: 'API request latency, from arrival to the answer written',
    labelNames: ['route', 'method'],
    buckets: LATENCY_BUCKETS,
    registers,
  })
  const rateLimited = new Counter({
    name: 'dn_rate_limited_total',
    help: 'rate-limit refusals: the API\'s own 429s (source="service", scope=route family) and venue refusals (source="venue", scope=venue)',
    labelNames: ['source', 'scope'],
    registers,
  })
  const acceptToVenue = new Histogram({
    name: 'dn_accept_to_venue_seconds',
    help: "from an order's acceptance (202, createdAt) to its submission reaching the venue",
    labelNames: ['kind', 'venue'],
    buckets: ACCEPT_BUCKETS,
    registers,
  })
  const pickup = new Histogram({
    name: 'dn_worker_pickup_seconds',
    help: 'from when a row became due (accepted, or its retry time) to a worker claiming it',
    labelNames: ['kind'],
    buckets: PICKUP_BUCKETS,
    registers,
  })
  const transitions = new Counter({
    name: 'dn_worker_transitions_total',
    help: 'status changes the worker made, by kind (task, order, binding)',
    labelNames: ['kind', 'from', 'to'],
    registers,
  })
  const leaseSteals = new Counter({
    name: 'dn_worker_lease_steals_total',
    help: 'leases taken over from a worker that did not give them back',
    labelNames: ['kind', 'reason'],
    registers,
  })
  const externalChanges = new Counter({
    name: 'dn_external_changes_total',
    help: 'task legs a change made outside dn took (liquidation, ADL, a trade at the venue), by venue',
    labelNames: ['venue'],
    registers,
  })
  const venueRequests = new Counter({
    name: 'dn_venue_requests_total',
    help: 'venue HTTP calls, by venue, endpoint (path) and status (error: no answer)',
    labelNames: ['venue', 'endpoint', 'status'],
    registers,
  })
  const venueSeconds = new Histogram({
    name: 'dn_venue_request_duration_seconds',
    help: 'venue HTTP call latency, request sent to answer read',
    labelNames: ['venue', 'endpoint'],
    buckets: LATENCY_BUCKETS,
    registers,
  })
  const venueErrors = new Counter({
    name: 'dn_venue_request_errors_total',
    help: 'venue HTTP calls that failed: no answer (reason="network"), 4xx or 5xx',
    labelNames: ['venue', 'endpoint', 'reason'],
    registers,
  })

  const budgets: { venue: string; budget: RequestBudget; share: number }[] = []
  const budgetGauge = (name: string, help: string, read: BudgetRead) =>
    new Gauge({
      name,
      help,
      labelNames: ['venue', 'limit'],
      registers,
      collect() {
        this.reset()
        for (const b of budgets) {
          for (const [limit, value] of read(b)) {
            this.set({ venue: b.venue, limit }, value)
          }
        }
      },
    })
  budgetGauge(
    'dn_venue_budget_used',
    'weight counted in the current window of a venue limit (the busiest bucket: per IP, or the busiest account)',
    ({ budget }) => {
      const used = new Map(budget.limits().map((l) => [l.id, 0]))
      for (const u of budget.usage()) {
        used.set(u.limit, Math.max(used.get(u.limit) ?? 0, u.used))
      }
      return used
    },
  )
  budgetGauge(
    'dn_venue_budget_ceiling',
    'weight this process may use per window of a venue limit (published capacity × DN_VENUE_BUDGET_SHARE)',
    ({ budget, share }) =>
      new Map(
        budget.limits().map((l) => [l.id, Math.floor(l.capacity * share)]),
      ),
  )
  budgetGauge(
    'dn_venue_budget_capacity',
    "the venue's published capacity per window of a limit",
    ({ budget }) => new Map(budget.limits().map((l) => [l.id, l.capacity])),
  )
  new Gauge({
    name: 'dn_venue_budget_held_off',
    help: '1 while a venue told this process to send nothing (after a rate-limit refusal)',
    labelNames: ['venue'],
    registers,
    collect() {
      for (const b of budgets) {
        this.set({ venue: b.venue }, b.budget.heldOff() ? 1 : 0)
      }
    },
  })

  let queues: { store: Pick<Store, 'workQueue'>; clock: Clock } | undefined
  const queueDue = new Gauge({
    name: 'dn_work_queue_due',
    help: 'tasks, orders and binding batches due for a worker and not leased now',
    labelNames: ['kind'],
    registers,
  })
  const queueAge = new Gauge({
    name: 'dn_work_queue_oldest_due_seconds',
    help: 'how long the oldest due item of a kind has waited (0: none due)',
    labelNames: ['kind'],
    registers,
  })
  const runningTasks = new Gauge({
    name: 'dn_tasks_running',
    help: 'tasks in status running',
    registers,
  })
  const unknownOrders = new Gauge({
    name: 'dn_orders_unknown',
    help: 'direct orders in status unknown (submission outcome not yet learnt)',
    registers,
  })
  /** one store read per scrape feeds the four queue gauges */
  const readQueues = async () => {
    if (!queues) return
    const now = queues.clock.now()
    const stats = await workQueueStats(queues.store, msToIso(now))
    for (const [kind, q] of Object.entries(stats.queues)) {
      queueDue.set({ kind }, q.due)
      queueAge.set(
        { kind },
        q.oldestDueAt === null
          ? 0
          : Math.max(0, (now - Date.parse(q.oldestDueAt)) / 1000),
      )
    }
    runningTasks.set(stats.runningTasks)
    unknownOrders.set(stats.unknownOrders)
  }

  const seconds = (ms: number) => Math.max(0, ms) / 1000
  return {
    registry,
    async render() {
      await readQueues()
      return {
        contentType: registry.contentType,
        text: await registry.metrics(),
      }
    },
    request(route, method, status, ms) {
      httpRequests.inc({ route, method, status: String(status) })
      httpSeconds.observe({ route, method }, seconds(ms))
    },
    rateLimited(source, scope) {
      rateLimited.inc({ source, scope })
    },
    venueCall(venue, endpoint, status, ms) {
      venueRequests.inc({ venue, endpoint, status: String(status) })
      venueSeconds.observe({ venue, endpoint }, seconds(ms))
      const reason =
        status === 'error'
          ? 'network'
          : status >= 500
            ? '5xx'
            : status >= 400
              ? '4xx'
              : null
      if (reason) venueErrors.inc({ venue, endpoint, reason })
    },
    watchBudget(venue, budget, share) {
      budgets.push({ venue, budget, share })
    },
    watchQueues(store, clock) {
      queues = { store, clock }
    },
    observe(event: WorkerEvent) {
      switch (event.type) {
        case 'transition':
          transitions.inc({ kind: event.kind, from: event.from, to: event.to })
          break
        case 'venueSubmit':
          acceptToVenue.observe(
            { kind: event.kind, venue: event.venue },
            seconds(event.acceptToVenueMs),
          )
          break
        case 'leaseSteal':
          leaseSteals.inc({ kind: event.kind, reason: event.reason })
          break
        case 'pickup':
          pickup.observe({ kind: event.kind }, seconds(event.waitedMs))
          break
        case 'externalChange':
          externalChanges.inc({ venue: event.venue })
          break
      }
    },
  }
}

type BudgetRead = (b: {
  readonly budget: RequestBudget
  readonly share: number
}) => Map<string, number>
