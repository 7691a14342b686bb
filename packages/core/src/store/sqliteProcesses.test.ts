import { execFile } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { TaskRecord } from '../domain/task.js'
import { task } from '../ports/store.contract.js'
import { createSqliteStore } from './sqlite.js'

/**
 * Several OS processes on one SQLite file. Node 20 cannot run TypeScript, so
 * the store's sources are transpiled into a temp folder first.
 */
const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const srcRoot = resolve(here, '..')
const repoRoot = resolve(srcRoot, '../../..')

const CHILD = `
import { createSqliteStore } from './store/sqlite.js'
const [mode, filename, taskId, rounds, bucket, nowMs, limit] = process.argv.slice(2)
const store = await createSqliteStore({ filename })
let admitted = 0
const claimed = []
if (mode === 'claim') {
  // taskId names the worker here
  for (let i = 0; i < Number(rounds); i++) {
    const rows = await store.tasks.claim({
      workerId: taskId,
      now: new Date(Number(nowMs)).toISOString(),
      leaseMs: 3600000,
      statuses: ['pending'],
      limit: Number(limit),
    })
    for (const row of rows) claimed.push(row.id)
  }
}
if (mode === 'work') {
  for (let i = 0; i < Number(rounds); i++) {
    await store.transaction(async (tx) => {
      const task = await tx.tasks.get(taskId)
      // let other processes run between this read and the write below
      await new Promise((r) => setTimeout(r, 2))
      await tx.tasks.update(taskId, {
        fundingUsd: String(Number(task.fundingUsd) + 1),
        updatedAt: task.updatedAt,
      })
    })
    const hit = await store.rateLimits.hit(bucket, Number(nowMs), 60000, Number(limit))
    if (hit.allowed) admitted++
  }
}
await store.close()
process.stdout.write(JSON.stringify({ admitted, claimed }))
`

/** Transpiles `entry` and every relative import it reaches into `out`. */
function transpile(entry: string, out: string): void {
  const pending = [entry]
  const done = new Set<string>()
  while (pending.length > 0) {
    const file = pending.pop()
    if (file === undefined || done.has(file)) continue
    done.add(file)
    const source = readFileSync(file, 'utf8')
    const { outputText } = ts.transpileModule(source, {
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    })
    const target = join(out, relative(srcRoot, file)).replace(/\.ts$/, '.js')
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, outputText)
    for (const m of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g)) {
      if (m[1]) pending.push(resolve(dirname(file), `${m[1]}.ts`))
    }
  }
}

/** A task row with id `counter`, created and updated at `at`. */
function counterTask(at: string): TaskRecord {
  return task({
    id: 'counter',
    owner: '0xowner',
    apiKeyId: 'k',
    sizeUsd: '100',
    minFundingApy: '0',
    autoClose: false,
    status: 'running',
    createdAt: at,
    updatedAt: at,
  })
}

describe('sqlite store across processes', () => {
  let dir: string
  let script: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dn-sqlite-procs-'))
    const out = join(dir, 'dist')
    transpile(join(here, 'sqlite.ts'), out)
    symlinkSync(join(repoRoot, 'node_modules'), join(out, 'node_modules'))
    script = join(out, 'child.mjs')
    writeFileSync(script, CHILD)
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const spawnAll = (n: number, args: (i: number) => string[]) =>
    Promise.all(
      Array.from({ length: n }, async (_, i) => {
        const { stdout } = await run(process.execPath, [script, ...args(i)])
        return JSON.parse(stdout) as { admitted: number; claimed: string[] }
      }),
    )

  test('behavior: concurrent starts migrate once; writers queue', async () => {
    const filename = join(dir, 'shared.db')
    await spawnAll(4, () => ['migrate', filename])

    const store = await createSqliteStore({ filename })
    const at = '2030-01-01T00:00:00.000Z'
    const counter = counterTask(at)
    try {
      await store.tasks.insert(counter)
      const results = await spawnAll(4, () => [
        'work',
        filename,
        counter.id,
        '15',
        'bucket',
        '1000000',
        '25',
      ])
      // every read-modify-write transaction committed, none lost
      expect((await store.tasks.get(counter.id))?.fundingUsd).toBe('60')
      // 60 hits at one instant, limit 25: exactly 25 admitted
      expect(results.reduce((sum, r) => sum + r.admitted, 0)).toBe(25)
    } finally {
      await store.close()
    }
  })

  test('behavior: claimers in several processes never share a row', async () => {
    const filename = join(dir, 'claims.db')
    const store = await createSqliteStore({ filename })
    const at = Date.UTC(2030, 0, 1)
    const ids = Array.from({ length: 40 }, (_, i) => `task-${i}`)
    try {
      for (const [i, id] of ids.entries()) {
        await store.tasks.insert({
          ...counterTask(new Date(at - i).toISOString()),
          id,
          status: 'pending',
        })
      }
      const results = await spawnAll(4, (i) => [
        'claim',
        filename,
        `w${i}`,
        '8',
        'unused',
        String(at),
        '3',
      ])
      const claimed = results.flatMap((r) => r.claimed)
      expect(claimed.sort()).toEqual([...ids].sort())
      for (const id of ids) {
        expect((await store.tasks.get(id))?.fence).toBe(1)
      }
    } finally {
      await store.close()
    }
  })
})
