import { randomUUID } from 'node:crypto'
import type { ApiKeyRecord } from '../domain/apiKey.js'
import { orderMinimumUsd } from '../domain/orderMinimum.js'
import { planOrder } from '../domain/planOrder.js'
import type { TaskRecord } from '../domain/task.js'
import type { VenueId } from '../domain/venue.js'
import { RuleViolationError } from '../errors/domain.js'
import type { Repos } from '../ports/store.js'
import { dec, decString } from '../util/decimal.js'
import { msToIso } from '../util/time.js'
import { requireBoundVenues, requireVenueGrant } from './accessChecks.js'
import type { CommandDeps } from './commandDeps.js'
import { commonStep, listedMarket } from './marketChecks.js'

export interface CreateTaskParameters {
  readonly longVenue: VenueId
  readonly shortVenue: VenueId
  readonly longMarket: string
  readonly shortMarket: string
  readonly sizeUsd: number
  readonly minFundingApy?: number | undefined
  readonly autoClose?: boolean | undefined
  readonly maxSpreadBps?: number | undefined
  readonly liqProtectionPct?: number | undefined
  readonly sizeMismatchPct?: number | undefined
}

export interface PreparedTask {
  readonly params: CreateTaskParameters
  /** base size both legs would open with at the quoted marks */
  readonly baseSize: string
}

/**
 * Checks done before the transaction (they read market data): grants, the
 * key's USD cap, listed symbols, and that one base size rounded to both
 * venues' steps meets both venues' minimums.
 */
export async function prepareCreateTask(
  deps: Pick<CommandDeps, 'markets'>,
  key: ApiKeyRecord,
  params: CreateTaskParameters,
): Promise<PreparedTask> {
  requireVenueGrant(key, [params.longVenue, params.shortVenue])
  const size = dec(params.sizeUsd)
  if (size.gt(key.maxSizeUsd)) {
    throw new RuleViolationError(
      'size_exceeds_key_limit',
      `sizeUsd ${decString(size)} exceeds this key's maxSizeUsd ${key.maxSizeUsd}`,
    )
  }
  const [long, short] = await Promise.all([
    listedMarket(deps.markets, params.longVenue, params.longMarket),
    listedMarket(deps.markets, params.shortVenue, params.shortMarket),
  ])
  const step = commonStep(long.rules.sizeStep, short.rules.sizeStep)
  const highMark = dec(long.quote.mark).gt(short.quote.mark)
    ? long.quote.mark
    : short.quote.mark
  let base = dec(0)
  for (const leg of [long, short]) {
    // one base size for both legs: the USD size at the higher mark, on
    // both venues' steps; each leg's notional at its own mark
    const plan = planOrder(
      { ...leg.rules, sizeStep: step },
      leg.quote,
      {
        sizeBase: size.div(highMark),
        side: leg === long ? 'long' : 'short',
        limitPrice: leg.quote.mark,
        slippageBps: 0,
      },
      key.maxSizeUsd,
    )
    base = plan.size
    const notional = plan.riskUsd
    const minUsd = orderMinimumUsd(leg.rules)
    if (base.lt(leg.rules.minBase) || base.isZero() || notional.lt(minUsd)) {
      throw new RuleViolationError(
        'below_venue_minimum',
        `sizeUsd ${decString(size)} gives ${decString(base)} ${leg.rules.symbol} (USD ${decString(notional.toDecimalPlaces(2))}) on ${leg.rules.venue}, below its minimum of ${leg.rules.minBase} base and USD ${minUsd}`,
      )
    }
  }
  return { params, baseSize: decString(base) }
}

/** Inserts the pending task once the owner's venues are bound. */
export async function createTask(
  tx: Repos,
  deps: Pick<CommandDeps, 'clock'>,
  key: ApiKeyRecord,
  prepared: PreparedTask,
): Promise<TaskRecord> {
  const p = prepared.params
  await requireBoundVenues(tx, key.owner, [p.longVenue, p.shortVenue])
  const now = msToIso(deps.clock.now())
  const optional = (n: number | undefined) =>
    n === undefined ? null : decString(n)
  const task: TaskRecord = {
    id: randomUUID(),
    owner: key.owner,
    apiKeyId: key.id,
    longVenue: p.longVenue,
    shortVenue: p.shortVenue,
    longMarket: p.longMarket,
    shortMarket: p.shortMarket,
    sizeUsd: decString(p.sizeUsd),
    minFundingApy: decString(p.minFundingApy ?? 0),
    autoClose: p.autoClose ?? true,
    maxSpreadBps: optional(p.maxSpreadBps),
    status: 'pending',
    longSize: null,
    shortSize: null,
    longEntry: null,
    shortEntry: null,
    longPrice: null,
    shortPrice: null,
    longLeverage: null,
    shortLeverage: null,
    liqProtectionPct: optional(p.liqProtectionPct),
    sizeMismatchPct: optional(p.sizeMismatchPct),
    fundingUsd: '0',
    longMarginMode: null,
    shortMarginMode: null,
    closeReason: null,
    error: null,
    closeRequestedAt: null,
    resizeRequest: null,
    engineState: null,
    createdAt: now,
    updatedAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    fence: 0,
    nextCheckAt: null,
  }
  await tx.tasks.insert(task)
  return task
}
