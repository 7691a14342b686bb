import { type ChildProcess, spawn } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createDnClient, type Task } from '@dn/client'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'

const root = fileURLToPath(new URL('../', import.meta.url))

interface Run {
  readonly code: number | null
  readonly out: string
  readonly err: string
}

/** The JSON an example prints on its last line. */
function summary<T>(r: Run): T {
  const last = r.out.trim().split('\n').at(-1) ?? ''
  return JSON.parse(last) as T
}

/**
 * The examples as a user runs them after `npm start`: `node
 * examples/<name>.mjs` with only environment variables, against one live
 * `dn up`. They run from a scratch copy whose `@dn/client` is bundled from
 * the current sources (tests never depend on a prior build) and whose viem
 * is the repository's.
 */
describe('examples/ against a live dn up', () => {
  let cli: string
  let dir: string
  let up: DnUpProcess
  let apiKey: string
  const children = new Set<ChildProcess>()

  function start(name: string, env: Record<string, string>) {
    const child = spawn(process.execPath, [join(dir, 'examples', name)], {
      cwd: dir,
      env: {
        ...process.env,
        DN_URL: up.api,
        DN_SIM_URL: up.sim,
        DN_PRIVATE_KEY: '',
        DN_API_KEY: apiKey ?? '',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    children.add(child)
    const run = { out: '', err: '' }
    child.stdout?.on('data', (d: Buffer) => {
      run.out += d.toString()
    })
    child.stderr?.on('data', (d: Buffer) => {
      run.err += d.toString()
    })
    const exit = new Promise<Run>((resolve) =>
      child.once('exit', (code) => {
        children.delete(child)
        resolve({ code, ...run })
      }),
    )
    return { child, run, exit }
  }

  /** Runs an example to its end (SIGKILL after `timeoutMs`). */
  async function runExample(
    name: string,
    env: Record<string, string> = {},
    timeoutMs = 60_000,
  ): Promise<Run> {
    const { child, exit } = start(name, env)
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    const r = await exit
    clearTimeout(timer)
    expect(r.err, r.out + r.err).toBe('')
    expect(r.code, r.out).toBe(0)
    return r
  }

  /** Tasks of the key in `status`, through the API. */
  async function tasksIn(status: Task['status']): Promise<Task[]> {
    const dn = createDnClient({ baseUrl: up.api, apiKey })
    const found: Task[] = []
    for await (const t of dn.tasks.list({ status })) found.push(t)
    return found
  }

  /** Funding APY in percent of every hl/aster/lighter market, as listed. */
  async function fundingApys(): Promise<Map<string, number>> {
    const dn = createDnClient({ baseUrl: up.api, apiKey })
    const apys = new Map<string, number>()
    for (const venue of ['hl', 'aster', 'lighter'] as const)
      for (const m of (await dn.markets.list({ venue })).markets)
        if (m.fundingApy !== null)
          apys.set(`${venue}:${m.symbol}`, Number(m.fundingApy))
    return apys
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dn-examples-'))
    cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true })
    const client = join(dir, 'node_modules', '@dn', 'client')
    mkdirSync(client, { recursive: true })
    writeFileSync(
      join(client, 'package.json'),
      JSON.stringify({ name: '@dn/client', type: 'module', main: 'index.js' }),
    )
    await build({
      entryPoints: [join(root, 'packages/client/src/index.ts')],
      outfile: join(client, 'index.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'silent',
    })
    symlinkSync(
      join(root, 'node_modules', 'viem'),
      join(dir, 'node_modules', 'viem'),
    )
    cli = await bundleCli()
    up = await startDnUp(cli, join(dir, 'data'))
  }, 60_000)

  afterAll(async () => {
    for (const c of children) c.kill('SIGKILL')
    await up?.stop()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('bindAndKey: funds, binds hl, aster and lighter, prints a key', async () => {
    const r = await runExample('bindAndKey.mjs')
    const s = summary<{
      wallet: string
      venues: string[]
      lighterAccountIndex: number
      apiKey: string
    }>(r)
    expect(s.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(s.venues).toEqual(['aster', 'hl', 'lighter'])
    expect(s.lighterAccountIndex).toEqual(expect.any(Number))
    expect(s.apiKey).toMatch(/^dn_local_[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/)
    expect(r.out).toMatch(/binding bound hl=bound aster=bound lighter=bound/)
    expect(r.out).toContain(`api key ${s.apiKey} (shown once`)
    apiKey = s.apiKey
  })

  test('pairedPosition: running, then closed with its PnL', async () => {
    const r = await runExample('pairedPosition.mjs', { DN_HOLD_SECONDS: '2' })
    const s = summary<{
      taskId: string
      seen: string[]
      status: string
      pnl: Task['pnl']
    }>(r)
    expect(s.status).toBe('closed')
    expect(s.seen.indexOf('running')).toBeGreaterThanOrEqual(0)
    expect(s.seen.at(-1)).toBe('closed')
    expect(s.seen.indexOf('running')).toBeLessThan(s.seen.indexOf('closed'))
    expect(s.pnl.totalUsd).toMatch(/^-?\d+(\.\d+)?$/)
    expect(s.pnl.long.entryPrice).toMatch(/^\d/)
    expect(s.pnl.long.exitPrice).toMatch(/^\d/)
    expect(s.pnl.short.entryPrice).toMatch(/^\d/)
    expect(s.pnl.short.exitPrice).toMatch(/^\d/)
    expect(r.out).toMatch(/holding: funding APY now -?[\d.]+ %/)
    expect(r.out).toMatch(/closed: total -?[\d.]+ USD/)
  })

  test('pairedPosition beside a running task on a market it shares: both hold, the task keeps its legs (issue 32)', async () => {
    const dn = createDnClient({ baseUrl: up.api, apiKey })
    // a task on aster BTCUSDT, the example's short leg: on the other side
    // where the funding lets it open, else on the same side
    const apys = await fundingApys()
    const apy = (m: string) => apys.get(m) ?? 0
    const others = ['lighter:BTC', 'hl:BTC'].sort((a, b) => apy(b) - apy(a))
    const [venue, market] = (
      apy('aster:BTCUSDT') <= apy(others[0] as string)
        ? (others[0] as string)
        : (others[1] as string)
    ).split(':') as ['lighter' | 'hl', string]
    const opposite = apy('aster:BTCUSDT') <= apy(`${venue}:${market}`)
    const { taskId } = await dn.tasks.create({
      ...(opposite
        ? {
            longVenue: 'aster',
            longMarket: 'BTCUSDT',
            shortVenue: venue,
            shortMarket: market,
          }
        : {
            longVenue: venue,
            longMarket: market,
            shortVenue: 'aster',
            shortMarket: 'BTCUSDT',
          }),
      sizeUsd: 500,
      autoClose: false,
    })
    const before = await dn.tasks.waitFor(taskId, { timeoutMs: 60_000 })
    expect(before.status).toBe('running')

    const r = await runExample('pairedPosition.mjs', { DN_HOLD_SECONDS: '3' })
    expect(summary<{ status: string }>(r).status).toBe('closed')
    const after = await dn.tasks.get(taskId)
    expect(after).toMatchObject({
      status: 'running',
      longSize: before.longSize,
      shortSize: before.shortSize,
      closeReason: null,
      error: null,
    })
    await dn.tasks.close(taskId)
    const closed = await dn.tasks.waitFor(taskId, {
      until: ['closed'],
      timeoutMs: 60_000,
    })
    expect(closed).toMatchObject({ status: 'closed', error: null })
  })

  test('limitOrder: rests under the mark on the tick, open, then cancelled', async () => {
    const r = await runExample('limitOrder.mjs')
    const s = summary<{
      orderId: string
      limitPrice: string
      seen: string[]
      status: string
    }>(r)
    expect(s.seen).toContain('open')
    expect(s.seen.at(-1)).toBe('cancelled')
    const dn = createDnClient({ baseUrl: up.api, apiKey })
    const btc = (await dn.markets.list({ venue: 'hl' })).markets.find(
      (m) => m.symbol === 'BTC',
    )
    const price = Number(s.limitPrice)
    expect(price).toBeLessThan(Number(btc?.mark) * 0.6)
    // on BTC's 0.1 tick
    expect(Math.abs(price / 0.1 - Math.round(price / 0.1))).toBeLessThan(1e-6)
    const order = await dn.orders.get(s.orderId)
    expect(order).toMatchObject({ status: 'cancelled', filledBase: '0' })
  })

  interface BotSummary {
    opened: {
      taskId: string
      asset: string
      long: { venue: string; symbol: string; apy: number }
      short: { venue: string; symbol: string; apy: number }
      diff: number
    }[]
    closed: { taskId: string; why: string; status: string }[]
    stoppedBy: string
  }

  test('fundingBot: opens on market data, closes when the difference is under the close threshold', async () => {
    const before = await fundingApys()
    // a close threshold over every difference: each pair decays at the
    // next scan, and the run ends (closing what is left) after 10 s
    const r = await runExample(
      'fundingBot.mjs',
      {
        DN_BOT_OPEN_APY: '5',
        DN_BOT_CLOSE_APY: '1000',
        DN_BOT_INTERVAL_SECONDS: '2',
        DN_BOT_MAX_SECONDS: '10',
      },
      90_000,
    )
    const after = await fundingApys()
    const s = summary<BotSummary>(r)
    expect(s.stoppedBy).toBe('max_seconds')
    expect(s.opened.length).toBeGreaterThan(0)
    const first = s.opened[0] as BotSummary['opened'][number]
    // the decision used the listed rates (read before or after the run,
    // in case a funding period turned meanwhile)
    for (const leg of [first.long, first.short]) {
      const key = `${leg.venue}:${leg.symbol}`
      expect([before.get(key), after.get(key)]).toContain(leg.apy)
    }
    expect(first.diff).toBeCloseTo(first.short.apy - first.long.apy, 9)
    expect(first.diff).toBeGreaterThanOrEqual(5)
    expect(r.out).toContain(`open ${first.taskId}: ${first.asset} `)
    expect(r.out).toMatch(new RegExp(`close ${first.asset}: [\\d.]+ % < 1000`))
    expect(s.closed.find((c) => c.taskId === first.taskId)).toMatchObject({
      why: 'decayed',
      status: 'closed',
    })
    expect(s.closed.map((c) => c.taskId).sort()).toEqual(
      s.opened.map((o) => o.taskId).sort(),
    )
    expect(await tasksIn('running')).toEqual([])
    expect(await tasksIn('pending')).toEqual([])
  }, 120_000)

  test('fundingBot: Ctrl-C closes the pair it holds, then exits', async () => {
    const { child, run, exit } = start('fundingBot.mjs', {
      DN_BOT_OPEN_APY: '5',
      DN_BOT_CLOSE_APY: '3',
      DN_BOT_INTERVAL_SECONDS: '2',
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000)
    for (let i = 0; i < 600 && !/opened [0-9a-f-]{36}/.test(run.out); i++)
      await new Promise((r) => setTimeout(r, 100))
    expect(run.out).toMatch(/opened [0-9a-f-]{36}/)
    expect(await tasksIn('running')).toHaveLength(1)
    child.kill('SIGINT')
    const r = await exit
    clearTimeout(timer)
    expect(r.err, r.out + r.err).toBe('')
    expect(r.code).toBe(0)
    const s = summary<BotSummary>(r)
    expect(s.stoppedBy).toBe('SIGINT')
    expect(s.opened).toHaveLength(1)
    expect(s.closed).toEqual([
      expect.objectContaining({
        taskId: s.opened[0]?.taskId,
        why: 'SIGINT',
        status: 'closed',
      }),
    ])
    expect(r.out).toContain('SIGINT: closing what this bot opened')
    expect(await tasksIn('running')).toEqual([])
    expect(await tasksIn('pending')).toEqual([])
  }, 120_000)
})
