import { writeFileSync } from 'node:fs'
import { expect } from 'vitest'
import {
  describeRun,
  type FaultRunOptions,
  type FaultRunReport,
  runFaults,
} from './faultRun.js'
import { type Dialect, dialects } from './testService.js'

type Profile = Omit<FaultRunOptions, 'dialect' | 'seed' | 'workers'>

/**
 * `ci`: what every `npm test` runs (a few minutes, both stores side by
 * side); `long`: bench/venueFaults.mjs's run (hundreds of lifecycles at
 * 25 % faults).
 */
const PROFILES: Readonly<Record<string, Profile>> = {
  ci: {
    rate: 0.15,
    owners: 5,
    chaosMs: 50_000,
    killEveryMs: 6_000,
    orderPauseMs: [300, 1_500],
  },
  // a user's pace, not a flood: 12 owners sending an order every 3-9 s
  // at 25 % faults (an order a second overall; at 0.75 s an owner the
  // venues' budgets could not drain them and most expired unsent)
  long: {
    rate: 0.25,
    owners: 12,
    chaosMs: 600_000,
    killEveryMs: 45_000,
    orderPauseMs: [3_000, 9_000],
  },
}

/** The profile `DN_FAULT_PROFILE` names (default `ci`). */
export function faultProfile(): Profile {
  const name = process.env.DN_FAULT_PROFILE ?? 'ci'
  const p = PROFILES[name]
  if (!p) throw new Error(`DN_FAULT_PROFILE: no profile ${name}`)
  return p
}

/**
 * The venue-fault property, run: a seeded run with SIGKILLed workers on
 * each store, side by side (each mostly waits on its settling window),
 * every one held to checkVenueProperty. A failure prints its seed;
 * `DN_FAULT_SEED` replays it, `DN_FAULT_RATE` changes the rate,
 * `DN_FAULT_KILL_EVERY_MS` the mean pause between worker SIGKILLs,
 * `DN_FAULT_DIALECTS` (e.g. `postgres`) picks the stores, and
 * `DN_FAULT_REPORT` names a file the reports are written to as JSON.
 */
export async function runFaultSuite(): Promise<FaultRunReport[]> {
  const profile = faultProfile()
  const base = Number(process.env.DN_FAULT_SEED ?? Date.now() % 100_000)
  const chosen = process.env.DN_FAULT_DIALECTS?.split(',') as
    | Dialect[]
    | undefined
  const reports = await Promise.all(
    (chosen ?? dialects()).map((dialect, i) =>
      runFaults({
        ...profile,
        dialect,
        seed: base + i,
        rate: Number(process.env.DN_FAULT_RATE ?? profile.rate),
        killEveryMs: Number(
          process.env.DN_FAULT_KILL_EVERY_MS ?? profile.killEveryMs,
        ),
        workers: dialect === 'postgres' ? 2 : 1,
      }),
    ),
  )
  for (const r of reports) console.info(describeRun(r))
  if (process.env.DN_FAULT_REPORT) {
    writeFileSync(process.env.DN_FAULT_REPORT, JSON.stringify(reports))
  }
  for (const r of reports) {
    const what = `${r.dialect}, seed ${r.seed}`
    expect(r.lifecycles, what).toBeGreaterThanOrEqual(6)
    expect(r.kills, what).toBeGreaterThan(0)
    expect(
      Object.values(r.faults).reduce((s, n) => s + (n ?? 0), 0),
      what,
    ).toBeGreaterThan(20)
    expect(r.violations, what).toEqual([])
  }
  return reports
}
