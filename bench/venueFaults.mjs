// Venue faults, the long run: the venue-fault property suite
// (test/venueFaults.test.ts, test/support/faultRun.ts) under its `long`
// profile: 12 owners running task lifecycles and direct orders for ten
// minutes at 25 % faults (every venue behind the seeded fault proxy, HTTP
// and WebSocket), `dn worker` processes SIGKILLed about every 45 s, then
// faults off and the settling window, and the property checked at the
// fakes. Prints faults by kind, tasks and orders by status, the orders
// that expired for want of delivery, each check of the property (what it
// looked at, what broke it) and the time to settle. On PostgreSQL (two
// workers) when DN_TEST_PG_URL or BENCH_PG_URL is set, else SQLite (one).
// `DN_FAULT_SEED` replays a seed; `DN_FAULT_KILL_EVERY_MS` sets the mean
// pause between SIGKILLs (300000: issue 31's run, a kill or two). Run:
// `node bench/venueFaults.mjs`.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const pg = process.env.DN_TEST_PG_URL ?? process.env.BENCH_PG_URL
const dir = mkdtempSync(join(tmpdir(), 'dn-bench-faults-'))
const reportFile = join(dir, 'reports.json')
const seed = process.env.DN_FAULT_SEED ?? String(Date.now() % 100_000)
const started = Date.now()
const run = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    'test/venueFaults.test.ts',
  ],
  {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      ...(pg ? { DN_TEST_PG_URL: pg } : {}),
      DN_FAULT_PROFILE: 'long',
      DN_FAULT_DIALECTS: pg ? 'postgres' : 'sqlite',
      DN_FAULT_SEED: seed,
      DN_FAULT_REPORT: reportFile,
    },
  },
)
let reports
try {
  reports = JSON.parse(readFileSync(reportFile, 'utf8'))
} catch {
  console.error(`venue faults: no report (vitest exited ${run.status})`)
  process.exit(1)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const sum = (o) => Object.values(o).reduce((s, n) => s + n, 0)
for (const r of reports) {
  const orders = sum(r.orders)
  const rows = [
    ['store, seed', `${r.dialect}, ${r.seed}`],
    [
      'duration',
      `${r.seconds} s (run ${Math.round((Date.now() - started) / 1000)} s)`,
    ],
    ['task lifecycles', r.lifecycles],
    ['worker SIGKILLs', r.kills],
    [
      'faults',
      `${sum(r.faults)}: ${Object.entries(r.faults)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    ],
    ...Object.entries(r.requests ?? {}).map(([venue, busiest]) => [
      `${venue} requests (busiest)`,
      Object.entries(busiest)
        .slice(0, 6)
        .map(([endpoint, n]) => `${endpoint} ${n}`)
        .join(', '),
    ]),
    [
      'tasks',
      Object.entries(r.tasks)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    ],
    [
      'direct orders',
      `${orders}: ${Object.entries(r.orders)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    ],
    [
      'expired for want of delivery',
      `${r.expiredUndelivered} (${((100 * r.expiredUndelivered) / Math.max(1, orders)).toFixed(1)} %)`,
    ],
    ['settled after faults off', `${Math.round(r.settleMs / 1000)} s`],
    ...Object.entries(r.checks).map(([k, c]) => [
      `check: ${k}`,
      `${c.failed} failed of ${c.checked}`,
    ]),
  ]
  console.log(`\n| venue faults (long) | |\n|---|---|`)
  for (const [k, v] of rows) console.log(`| ${k} | ${v} |`)
  console.log(`\nexpired: ${JSON.stringify(r.expiredWhy)}`)
  if (r.violations.length)
    console.log(`violations:\n${r.violations.join('\n')}`)
}
process.exit(run.status ?? 1)
