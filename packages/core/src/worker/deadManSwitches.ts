import type { VenueId } from '../domain/venue.js'
import { VenueRejectedError } from '../errors/venue.js'
import { CredentialUnavailableError } from '../errors/worker.js'
import type { CancelAllSwitch, VenueAdapter } from '../ports/venueAdapter.js'
import { errorMessage } from '../util/errorMessage.js'
import { ownerShard } from './ownerShard.js'
import type { resolveCredential } from './resolveCredential.js'
import { workerCredential } from './resolveCredential.js'
import type { WorkerDeps } from './workerDeps.js'

/**
 * How far beyond the venue's least lead a switch is set: resting orders
 * outlive their last worker by about this much (plus the lead: 5 s on
 * Hyperliquid, 5 min on Lighter).
 */
export const DEAD_MAN_WINDOW_MS = 120_000

/**
 * A switch is pushed out again once less than this is left beyond the
 * venue's least lead: one request a minute per account (Aster: per
 * market), not one a heartbeat. Hyperliquid's limit of 10 firings a day
 * counts firings, not arms, so re-arming costs only request weight.
 */
export const DEAD_MAN_REARM_MS = 60_000

/** After a failure (not sent, uncertain), the account is tried again after this. */
const RETRY_AFTER_FAILURE_MS = 15_000

/**
 * After a refusal (e.g. Hyperliquid's traded-volume requirement, an
 * unbound venue), after this: the answer will not change soon.
 */
const RETRY_AFTER_REFUSAL_MS = 600_000

/** One venue account's switch, as this worker last set it. */
interface AccountSwitch {
  readonly owner: string
  readonly venue: VenueId
  /** venue time the switch fires; null while none is known to be set */
  armedAt: number | null
  /** the markets it was set for (a `market`-scoped venue: one each) */
  markets: ReadonlySet<string>
  /** no request for this account before this time, after a failure */
  retryAt: number
  /** a failure has been logged and no success came since */
  failing: boolean
}

interface SwitchState {
  readonly accounts: Map<string, AccountSwitch>
  running: boolean
}

interface Wanted {
  readonly owner: string
  readonly venue: VenueId
  readonly markets: Set<string>
}

/**
 * Keeps each venue's own dead-man switch (`VenueAdapter.armCancelAll`)
 * armed for every account of this worker's owner shard with an order that
 * may rest there, so those orders are cancelled at the venue about
 * DEAD_MAN_WINDOW_MS after the last worker died, and clears it once when
 * nothing rests there any more. Call it from the worker's heartbeat
 * (every ~2 s) with the same deps; a call while the last one is still
 * sending returns at once. What is armed is kept in memory, by the one
 * arming function a running worker makes (a restarted
 * worker arms again: the venue replaces the old schedule). A switch is
 * pushed out only when less than DEAD_MAN_REARM_MS is left beyond the
 * venue's least lead, or a market joins. A failure is logged once per
 * account (owner, venue, the error's message) and retried later; the
 * promise never rejects.
 *
 * An owner that leaves this worker's shard is forgotten without clearing:
 * the worker that now holds it arms its own switch, which replaces ours.
 * @example const arm = createDeadManSwitches(deps); await arm(deps.clock.now())
 */
export function createDeadManSwitches(
  deps: WorkerDeps,
): (now: number) => Promise<void> {
  const state: SwitchState = { accounts: new Map(), running: false }
  return async (now) => {
    if (state.running) return
    state.running = true
    try {
      await armAll(deps, state, now)
    } catch (err) {
      deps.logger.error('dead-man switches could not be read', {
        workerId: deps.workerId,
        error: errorMessage(err),
      })
    } finally {
      state.running = false
    }
  }
}

async function armAll(
  deps: WorkerDeps,
  state: SwitchState,
  now: number,
): Promise<void> {
  // paper venues have no switch: nothing to read
  if (!Object.values(deps.adapters).some((a) => switchOf(a))) return
  const [rows, mine] = await Promise.all([
    deps.store.orders.listRestingMarkets(),
    ownerShard(deps, now),
  ])
  const wanted = new Map<string, Wanted>()
  for (const r of rows) {
    if (!switchOf(deps.adapters[r.venue]) || !mine(r.owner)) continue
    const key = `${r.owner.toLowerCase()}|${r.venue}`
    const w = wanted.get(key) ?? {
      owner: r.owner,
      venue: r.venue,
      markets: new Set<string>(),
    }
    w.markets.add(r.market)
    wanted.set(key, w)
  }
  const jobs: Promise<void>[] = []
  for (const [key, w] of wanted) {
    const account = state.accounts.get(key) ?? {
      owner: w.owner,
      venue: w.venue,
      armedAt: null,
      markets: new Set<string>(),
      retryAt: 0,
      failing: false,
    }
    state.accounts.set(key, account)
    if (account.retryAt > now) continue
    const job = keepArmed(deps, account, w.markets, now)
    if (job) jobs.push(job)
  }
  for (const [key, account] of state.accounts) {
    if (wanted.has(key)) continue
    // another worker holds the owner now, or the switch has fired or
    // lapsed: nothing of ours to clear
    if (
      !mine(account.owner) ||
      account.armedAt === null ||
      account.armedAt <= now
    ) {
      state.accounts.delete(key)
      continue
    }
    if (account.retryAt > now) continue
    jobs.push(clear(deps, state, key, account, now))
  }
  await Promise.all(jobs)
}

/** The switch of a venue that has one. */
function switchOf(
  adapter: VenueAdapter | undefined,
): CancelAllSwitch | undefined {
  return adapter?.armCancelAll ? adapter.cancelAllSwitch : undefined
}

/** Arms, re-arms or trims the account's switch when due; else null. */
function keepArmed(
  deps: WorkerDeps,
  account: AccountSwitch,
  markets: ReadonlySet<string>,
  now: number,
): Promise<void> | null {
  const adapter = deps.adapters[account.venue]
  const sw = switchOf(adapter)
  if (!adapter?.armCancelAll || !sw) return null
  const perMarket = sw.scope === 'market'
  const joined = [...markets].some((m) => !account.markets.has(m))
  const left = perMarket
    ? [...account.markets].filter((m) => !markets.has(m))
    : []
  // one switch for the account: its markets only say what it covers
  if (!perMarket) account.markets = new Set(markets)
  const due =
    account.armedAt === null ||
    account.armedAt - now < sw.minLeadMs + DEAD_MAN_REARM_MS ||
    (perMarket && joined)
  if (!due && left.length === 0) return null
  const at = Math.min(
    now + sw.minLeadMs + DEAD_MAN_WINDOW_MS,
    now + sw.maxLeadMs,
  )
  return attempt(deps, account, now, async (cred) => {
    if (due) {
      await adapter.armCancelAll?.(cred, [...markets], at)
      account.armedAt = at
      account.markets = new Set([...account.markets, ...markets])
    }
    if (left.length > 0) {
      // a market with nothing resting: its own countdown is stopped
      await adapter.armCancelAll?.(cred, left, null)
      account.markets = new Set(
        [...account.markets].filter((m) => !left.includes(m)),
      )
    }
  })
}

/** Clears the switch of an account where nothing rests any more. */
function clear(
  deps: WorkerDeps,
  state: SwitchState,
  key: string,
  account: AccountSwitch,
  now: number,
): Promise<void> {
  return attempt(deps, account, now, async (cred) => {
    await deps.adapters[account.venue]?.armCancelAll?.(
      cred,
      [...account.markets],
      null,
    )
    state.accounts.delete(key)
  })
}

/**
 * Runs `send` with the account's credential; a failure is logged once per
 * account (never the credential) and puts the account off for a while.
 */
async function attempt(
  deps: WorkerDeps,
  account: AccountSwitch,
  now: number,
  send: (cred: Awaited<ReturnType<typeof resolveCredential>>) => Promise<void>,
): Promise<void> {
  try {
    const cred = await workerCredential(deps, account.owner, account.venue, now)
    await send(cred)
    account.retryAt = 0
    if (account.failing) {
      account.failing = false
      deps.logger.info('dead-man switch set again', {
        workerId: deps.workerId,
        owner: account.owner,
        venue: account.venue,
      })
    }
  } catch (err) {
    const refused =
      err instanceof VenueRejectedError ||
      err instanceof CredentialUnavailableError
    account.retryAt =
      now + (refused ? RETRY_AFTER_REFUSAL_MS : RETRY_AFTER_FAILURE_MS)
    if (account.failing) return
    account.failing = true
    deps.logger.error(
      'dead-man switch could not be set: resting orders there are not cancelled by the venue if every worker dies',
      {
        workerId: deps.workerId,
        owner: account.owner,
        venue: account.venue,
        error: errorMessage(err),
        retryInMs: account.retryAt - now,
      },
    )
  }
}
