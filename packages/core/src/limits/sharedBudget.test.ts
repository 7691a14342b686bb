import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { Store } from '../ports/store.js'
import { createPostgresStore } from '../store/postgres.js'
import { createSqliteStore } from '../store/sqlite.js'
import {
  type BudgetCharge,
  createRequestBudget,
  type RequestPriority,
} from './requestBudget.js'

const dir = mkdtempSync(join(tmpdir(), 'dn-shared-budget-'))
let stores: Store[] = []
let dropSchema = async () => {}

beforeAll(async () => {
  // two processes of one deployment: two PostgreSQL pools when there is a
  // database (what deployments run); else one SQLite store both go through
  // (better-sqlite3 is synchronous: one process cannot hold two writers)
  const url = process.env.DN_TEST_PG_URL
  if (url) {
    const schema = `dn_budget_${Date.now()}`
    dropSchema = async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
    }
    stores = [
      await createPostgresStore({ connectionString: url, schema }),
      await createPostgresStore({ connectionString: url, schema }),
    ]
  } else {
    const one = await createSqliteStore({ filename: join(dir, 'budget.db') })
    stores = [one, one]
  }
})
afterAll(async () => {
  for (const s of new Set(stores)) await s.close()
  await dropSchema()
  rmSync(dir, { recursive: true, force: true })
})

const WINDOW = 400
const SPEND = 100
const limit = { id: 'weight', capacity: 200, windowMs: WINDOW }
const charge = (weight: number): BudgetCharge => ({
  limit: 'weight',
  bucket: 'weight',
  weight,
})

function processBudget(store: Store, prefix: string) {
  return createRequestBudget({
    name: 'hl',
    limits: [limit],
    share: 0.5,
    deliveryMarginMs: 0,
    shared: { repo: store.venueBudgets, prefix, spendMs: SPEND },
  })
}

describe('a request budget shared through the store', () => {
  test('behavior: two processes together spend at most the share in any window', async () => {
    const prefix = `hl-${Date.now()}`
    const budgets = stores.map((s) => processBudget(s, prefix))
    const spent: { at: number; weight: number }[] = []
    const started = Date.now()
    const tasks: Promise<void>[] = []
    const priorities: RequestPriority[] = ['order', 'urgent', 'routine']
    for (let i = 0; i < 60; i++) {
      const b = budgets[i % 2]
      const p = priorities[i % 3] ?? 'order'
      if (!b) throw new Error('no budget')
      tasks.push(
        b
          .acquire([charge(5)], p, { maxWaitMs: 2_000 })
          .then(() => {
            spent.push({ at: Date.now(), weight: 5 })
          })
          .catch(() => {}),
      )
    }
    await Promise.all(tasks)
    // the share is 100 per window; what was spent in any window stays under
    for (const s of spent) {
      const inWindow = spent
        .filter((x) => x.at >= s.at && x.at < s.at + WINDOW)
        .reduce((sum, x) => sum + x.weight, 0)
      expect(inWindow).toBeLessThanOrEqual(100)
    }
    // and the budget was really used, by both processes
    expect(spent.length).toBeGreaterThan(20)
    expect(Date.now() - started).toBeGreaterThan(WINDOW)
  })

  test('behavior: what one process reserved, the other cannot spend in the same window', async () => {
    const prefix = `hl-${Date.now()}-b`
    const [a, b] = stores.map((s) => processBudget(s, prefix))
    if (!a || !b) throw new Error('no budgets')
    await a.acquire([charge(100)], 'order')
    await expect(
      b.acquire([charge(5)], 'order', { maxWaitMs: 50 }),
    ).rejects.toThrow(/budget is spent/)
  })

  test('behavior: a chunk the store refuses is asked again at once as what is missing, which may fit', async () => {
    const prefix = `hl-${Date.now()}-d`
    const [a, b] = stores.map((s) => processBudget(s, prefix))
    if (!a || !b) throw new Error('no budgets')
    await a.acquire([charge(80)], 'order')
    // b's chunks: 5, then 10 (5 left, spent next): 95 reserved
    for (let i = 0; i < 3; i++) await b.acquire([charge(5)], 'order')
    // b's next chunk (10) does not fit; the 5 it needs does
    await b.acquire([charge(5)], 'order', { maxWaitMs: 50 })
  })

  test('behavior: what a chunk left unspent is given back when it expires: the other process spends it in the same window', async () => {
    const prefix = `hl-${Date.now()}-c`
    const [a, b] = stores.map((s) => processBudget(s, prefix))
    if (!a || !b) throw new Error('no budgets')
    // a's chunks: 5, then 10 of which 5 are spent (15 reserved, 10 spent)
    await a.acquire([charge(5)], 'order')
    await a.acquire([charge(5)], 'order')
    await b.acquire([charge(80)], 'order')
    // 6 more does not fit beside a's 15 and b's 80 (a third process asks)
    const c = processBudget(stores[0] as Store, prefix)
    await expect(
      c.acquire([charge(6)], 'order', { maxWaitMs: 20 }),
    ).rejects.toThrow(/budget is spent/)
    // a's chunk expired: its 5 unspent went back to the store, and b's
    // next chunk (10) fits in the same window
    await new Promise((r) => setTimeout(r, SPEND + 150))
    await b.acquire([charge(6)], 'order', { maxWaitMs: 50 })
  })
})
