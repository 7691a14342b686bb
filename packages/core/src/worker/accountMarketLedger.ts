import type { PerpOrderRecord, PerpOrderStatus } from '../domain/perpOrder.js'
import {
  type LedgerHolder,
  type LedgerReading,
  readLedger,
} from '../domain/positionLedger.js'
import { ACTIVE_TASK_STATUSES, type TaskRecord } from '../domain/task.js'
import type { Leg, LegOrder } from '../domain/taskEngineState.js'
import type { AccountMarket } from '../ports/store.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import {
  marketOf,
  signedLegBase,
  signedLegSize,
  venueOf,
} from './taskLegOrders.js'
import type { WorkerDeps } from './workerDeps.js'

const LEGS: readonly Leg[] = ['long', 'short']
/** The holder id of the owner's direct orders on an account market. */
const DIRECT_ORDERS_HOLDER = 'direct orders'
/** Direct orders that may still fill. */
const IN_FLIGHT: ReadonlySet<PerpOrderStatus> = new Set([
  'pending',
  'submitting',
  'open',
  'partially_filled',
  'unknown',
])

/** The ledger holders of one account market, read from the store. */
type HoldersOf = (market: AccountMarket) => Promise<LedgerHolder[]>

/** The holders as the store has them now. */
export function storeHolders(deps: {
  readonly store: Pick<WorkerDeps['store'], 'tasks' | 'orders'>
}): HoldersOf {
  return async (m) => {
    const [tasks, orders] = await Promise.all([
      deps.store.tasks.listOnMarket(m),
      deps.store.orders.listOnMarket(m),
    ])
    return ledgerHolders(m, tasks, orders)
  }
}

/** The holder id of a task's leg. */
function legHolderId(taskId: string, leg: Leg): string {
  return `task ${taskId} ${leg}`
}

/** The account market a task's leg trades. */
export function legMarket(task: TaskRecord, leg: Leg): AccountMarket {
  return {
    owner: task.owner,
    venue: venueOf(task, leg),
    market: marketOf(task, leg),
  }
}

/**
 * An account market's holders: each task leg on it, from its booked size
 * and the orders of its operation in flight, and the owner's direct orders
 * there together, from their fills and what those still open may fill.
 */
export function ledgerHolders(
  m: AccountMarket,
  tasks: readonly TaskRecord[],
  orders: readonly PerpOrderRecord[],
): LedgerHolder[] {
  const holders: LedgerHolder[] = []
  for (const task of tasks) {
    for (const leg of LEGS) {
      if (venueOf(task, leg) !== m.venue || marketOf(task, leg) !== m.market)
        continue
      if (ACTIVE_TASK_STATUSES.includes(task.status)) {
        const flow = new Flow(signedLegSize(task, leg))
        const order = task.engineState?.op?.legs[leg]
        if (order) flow.legOrder(order)
        holders.push({
          ...flow.holder(legHolderId(task.id, leg)),
          taskId: task.id,
          leg,
        })
      }
      // what the leg's close left at the venue is held there still, by
      // the task that left it: not an unexplained part of the net
      const left = task.engineState?.leftAtVenue?.[leg]
      if (left !== undefined) {
        holders.push({
          ...new Flow(signedLegBase(leg, left)).holder(
            `${legHolderId(task.id, leg)} left at the venue`,
          ),
          taskId: task.id,
          leg,
          leftAtVenue: true,
        })
      }
    }
  }
  const direct = new Flow(dec(0))
  for (const o of orders) {
    const requested = dec(o.requestedBase ?? o.sizeBase)
    const most = requested.gt(o.sizeBase) ? requested : dec(o.sizeBase)
    direct.add(o.side, o.filledBase, IN_FLIGHT.has(o.status) ? most : null)
  }
  if (orders.length > 0) holders.push(direct.holder(DIRECT_ORDERS_HOLDER))
  return holders
}

/** A holder's booked position and what its orders in flight may add. */
class Flow {
  private buy = dec(0)
  private sell = dec(0)
  constructor(private position: Decimal) {}
  /** an order's fills; `size` the whole order while it may fill more */
  add(side: 'long' | 'short', filled: string, size: Decimal | null) {
    const sign = side === 'long' ? 1 : -1
    this.position = this.position.add(dec(filled).mul(sign))
    if (size === null) return
    const rest = size.sub(filled)
    if (!rest.gt(0)) return
    if (sign > 0) this.buy = this.buy.add(rest)
    else this.sell = this.sell.add(rest)
  }
  /** an operation's leg order: filled, and still sending or done */
  legOrder(o: LegOrder) {
    this.add(o.side, o.filledBase, o.state === 'sending' ? dec(o.size) : null)
  }
  holder(id: string): LedgerHolder {
    return {
      id,
      position: decString(this.position),
      mayBuy: decString(this.buy),
      maySell: decString(this.sell),
    }
  }
}

/** A task leg's part of its account market, once the venue's net is read. */
export interface LegHolding {
  /** the leg's own position once any difference is attributed (≥ 0) */
  readonly held: string
  readonly reading: LedgerReading
}

/**
 * The leg's holding in the ledger of its account market against the
 * venue's net there (`venueNet`, signed). A leg the store no longer lists
 * (the task left its active states) holds its booked size.
 */
export function legHolding(
  task: TaskRecord,
  leg: Leg,
  holders: readonly LedgerHolder[],
  venueNet: string,
): LegHolding {
  const id = legHolderId(task.id, leg)
  const listed = holders.some((h) => h.id === id)
  const all = listed
    ? holders
    : [
        ...holders,
        {
          id,
          position: decString(signedLegSize(task, leg)),
          mayBuy: '0',
          maySell: '0',
        },
      ]
  const reading = readLedger(all, venueNet)
  // the leg's own side positive again
  const attributed = signedLegBase(leg, reading.attributed.get(id) ?? '0')
  return {
    held: decString(attributed.gt(0) ? attributed : dec(0)),
    reading,
  }
}

/** Whether two reads of an account market's holders saw the same. */
export function sameHolders(
  a: readonly LedgerHolder[],
  b: readonly LedgerHolder[],
): boolean {
  return JSON.stringify(a) === JSON.stringify(b)
}
