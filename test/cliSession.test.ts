import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'
import { freePort } from './support/freePort.js'
import {
  type CliRun,
  plain,
  runInTerminal,
  runPiped,
} from './support/runCli.js'

/**
 * A person at a terminal on a fresh `dn up`: every command in a
 * pseudo-terminal as typed, and again with --json as a script would run
 * it, with the exit code of each kind of failure.
 */
describe('the dn CLI as a person drives it', () => {
  let cli: string
  let dir: string
  let up: DnUpProcess
  let env: Record<string, string>
  let wallet: string
  const transcript: string[] = []

  async function tty(...args: string[]): Promise<CliRun> {
    const r = await runInTerminal(cli, args, env)
    transcript.push(
      `$ dn ${args.join(' ')}   [exit ${r.code}]\n${plain(r.out)}`,
    )
    return r
  }
  async function piped(...args: string[]): Promise<CliRun> {
    const r = await runPiped(cli, args, env)
    transcript.push(
      `$ dn ${args.join(' ')}   [exit ${r.code}]\n${r.out}${r.err}`,
    )
    return r
  }
  /** a --json run that must succeed: its parsed stdout */
  async function json<T>(...args: string[]): Promise<T> {
    const r = await piped(...args, '--json')
    expect(r.err, r.err).toBe('')
    expect(r.code).toBe(0)
    return JSON.parse(r.out) as T
  }
  /** a failing --json run: its exit code and the error JSON on stderr */
  async function failing(...args: string[]) {
    const r = await piped(...args, '--json')
    expect(r.out).toBe('')
    return { code: r.code, body: JSON.parse(r.err) as Record<string, unknown> }
  }

  /** `dn tasks create` of the pair every task here opens, USD 200 a leg */
  const CREATE_PAIR = [
    'tasks',
    'create',
    '--long',
    'hl:BTC',
    '--short',
    'aster:BTCUSDT',
    '--size-usd',
    '200',
  ]

  /** polls `check` every 250 ms for up to 30 s */
  async function waitFor(check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 120; i++) {
      if (await check()) return
      await new Promise((r) => setTimeout(r, 250))
    }
    throw new Error(
      `still not so after 30 s:\n${transcript.slice(-3).join('\n')}`,
    )
  }

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-cli-'))
    up = await startDnUp(cli, join(dir, 'data'))
    wallet = join(dir, 'wallet.json')
    env = {
      DN_URL: up.api,
      DN_SIM_URL: up.sim,
      DN_CONFIG: join(dir, 'config', 'dn.json'),
      DN_PRIVATE_KEY: '',
      DN_API_KEY: '',
      DN_PROFILE: '',
      DN_MASTER_KEY: '',
    }
  }, 60_000)

  afterAll(async () => {
    await up?.stop()
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
    if (process.env.DN_SHOW_TRANSCRIPT) console.info(transcript.join('\n'))
  })

  test('bind, save a key, open, watch, close a task; place and cancel orders', async () => {
    const made = await tty('wallet', 'new', '--file', wallet)
    expect(made.code).toBe(0)
    expect(plain(made.out)).toMatch(
      /wallet 0x[0-9a-fA-F]{40} written to .*wallet.json \(mode 0600\)/,
    )
    const shown = await json<{ address: string }>(
      'wallet',
      'show',
      '--wallet',
      wallet,
    )
    expect(
      plain((await tty('wallet', 'show', '--wallet', wallet)).out),
    ).toContain(shown.address)

    const funded = await json<
      { venue: string; accountIndex: number | string }[]
    >('faucet', '--wallet', wallet, '--venues', 'hl,aster,lighter')
    const lighter = funded.find((f) => f.venue === 'lighter')?.accountIndex
    expect(lighter).toEqual(expect.any(Number))

    const bound = await tty(
      'bind',
      '--venues',
      `hl,aster,lighter:${lighter}`,
      '--wallet',
      wallet,
    )
    expect(bound.code).toBe(0)
    expect(plain(bound.out)).toMatch(/hl\s+bound/)
    expect(plain(bound.out)).toMatch(
      /binding [0-9a-f-]{36}: bound; next: `dn keys create/,
    )

    const bindingsText = plain((await tty('bindings', '--wallet', wallet)).out)
    expect(bindingsText).toMatch(/VENUE\s+STATUS\s+ACCOUNT/)
    expect(bindingsText).toMatch(
      new RegExp(`lighter\\s+bound\\s+${lighter}\\s`),
    )
    const { bindings } = await json<{
      bindings: { venue: string; status: string; accountIndex: string | null }[]
    }>('bindings', '--wallet', wallet)
    expect(bindings.map((b) => [b.venue, b.status, b.accountIndex])).toEqual([
      ['aster', 'bound', null],
      ['hl', 'bound', null],
      ['lighter', 'bound', String(lighter)],
    ])

    const created = await tty(
      'keys',
      'create',
      '--venues',
      'hl,aster',
      '--max-size-usd',
      '5000',
      '--label',
      'desk',
      '--save',
      '--wallet',
      wallet,
    )
    expect(created.code).toBe(0)
    const key = /dn_local_[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}/.exec(
      plain(created.out),
    )?.[0] as string
    expect(plain(created.out)).toContain(
      `saved in ${env.DN_CONFIG} (profile default)`,
    )
    expect(statSync(env.DN_CONFIG as string).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(env.DN_CONFIG as string, 'utf8'))).toEqual({
      profiles: { default: { url: up.api, apiKey: key } },
    })
    const config = plain((await tty('config', 'show')).out)
    expect(config).toMatch(/api key\s+dn_local_[0-9a-f-]{36}\.… \(config\)/)
    expect(config).not.toContain(key)

    const hlBtc = await json<{
      markets: { symbol: string; mark: string; tickSize: string }[]
    }>('markets', '--venue', 'hl', '--symbol', 'BTC')
    const btc = hlBtc.markets.find((m) => m.symbol === 'BTC')
    expect(btc?.mark).toMatch(/^\d/)
    const marketsText = plain(
      (await tty('markets', '--venue', 'hl', '--symbol', 'BTC')).out,
    )
    expect(marketsText).toMatch(
      /SYMBOL\s+TICK\s+STEP\s+MIN BASE\s+MIN USD\s+MAX LEV\s+MARK\s+BID\s+ASK\s+FUNDING\/H\s+APY/,
    )
    expect(marketsText).toMatch(/\nBTC\s+/)

    const opened = await tty(...CREATE_PAIR, '--no-auto-close')
    expect(opened.code).toBe(0)
    const taskId =
      /task ([0-9a-f-]{36}) pending; follow it with `dn tasks watch \1`/.exec(
        plain(opened.out),
      )?.[1] as string
    expect(taskId).toBeDefined()

    const watched = await tty('tasks', 'watch', taskId, '--interval', '200')
    expect(watched.code).toBe(0)
    expect(plain(watched.out)).toMatch(/status\s+running/)
    expect(plain(watched.out)).toMatch(/long\s+hl:BTC\s+size \d/)

    // still running after 1 s: the block is redrawn in place (the cursor
    // goes back up over it) until the wait gives up, exit code 7
    const redrawn = await tty(
      'tasks',
      'watch',
      taskId,
      '--until',
      'closed',
      '--timeout',
      '1',
      '--interval',
      '100',
    )
    expect(redrawn.code).toBe(7)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escapes
    expect(redrawn.out.match(/\x1b\[\d+F\x1b\[0J/g)?.length).toBeGreaterThan(2)
    expect(plain(redrawn.out)).toMatch(
      /watching task [0-9a-f-]{36}: running \(Ctrl-C stops watching, not the task\)/,
    )
    expect(plain(redrawn.out)).toMatch(
      /dn: task [0-9a-f-]{36} still running after 1 s/,
    )

    const listed = plain((await tty('tasks', 'list')).out)
    expect(listed).toMatch(
      /TASK\s+STATUS\s+LONG\s+SHORT\s+SIZE USD\s+FUNDING USD\s+UPDATED/,
    )
    expect(listed).toMatch(
      new RegExp(`${taskId}\\s+running\\s+hl:BTC\\s+aster:BTCUSDT\\s+200`),
    )
    const page = await json<{
      tasks: { taskId: string; status: string }[]
      nextCursor: null
    }>('tasks', 'list', '--status', 'running')
    expect(page.tasks.map((t) => [t.taskId, t.status])).toEqual([
      [taskId, 'running'],
    ])
    const got = await json<{ task: { taskId: string; longSize: string } }>(
      'tasks',
      'get',
      taskId,
    )
    expect(Number(got.task.longSize)).toBeGreaterThan(0)

    // a task the funding gate holds back, and why, on the status screen
    const gated = await json<{ taskId: string }>(
      'tasks',
      'create',
      '--long',
      'hl:ETH',
      '--short',
      'aster:ETHUSDT',
      '--size-usd',
      '100',
      '--min-funding-apy',
      '999999',
    )
    await waitFor(async () => {
      const t = await json<{
        task: { pendingReason: { code: string } | null }
      }>('tasks', 'get', gated.taskId)
      return t.task.pendingReason?.code === 'funding_below_min'
    })
    // the worker's account snapshot shows the legs
    await waitFor(async () => {
      const p = await json<{
        accounts: {
          venue: string
          positions: { market: string; sizeBase: string }[]
        }[]
      }>('positions')
      return p.accounts.some(
        (a) =>
          a.venue === 'hl' &&
          a.positions.some(
            (x) => x.market === 'BTC' && x.sizeBase === got.task.longSize,
          ),
      )
    })
    const status = await tty('status')
    expect(status.code).toBe(0)
    const screen = plain(status.out)
    expect(screen).toMatch(/RUNNING TASKS \(1\)/)
    expect(screen).toMatch(
      /TASK\s+LONG\s+SHORT\s+SIZE USD\s+SPREAD\s+APY NOW\s+FUNDING USD\s+PNL USD\s+LIQ DIST L\/S/,
    )
    expect(screen).toMatch(
      new RegExp(
        `${taskId}\\s+hl:BTC [\\d.]+\\s+aster:BTCUSDT [\\d.]+\\s+200\\s+-?[\\d.]+ bps\\s+-?[\\d.]+%\\s+-?[\\d.]+\\s+-?[\\d.]+\\s+(-|[\\d.]+%) / (-|[\\d.]+%)\\n`,
      ),
    )
    expect(screen).toMatch(/PENDING TASKS \(1\)/)
    expect(screen).toMatch(
      new RegExp(
        `${gated.taskId}\\s+hl:ETH\\s+aster:ETHUSDT\\s+100\\s+funding APY -?[\\d.]+% < minFundingApy 999999`,
      ),
    )
    expect(screen).toMatch(/NEEDS ATTENTION: unknown orders \(0\)/)
    const statusJson = await json<{
      running: { taskId: string }[]
      pending: { taskId: string; pendingReason: { code: string } }[]
    }>('status')
    expect(statusJson.running.map((t) => t.taskId)).toEqual([taskId])
    expect(
      statusJson.pending.map((t) => [t.taskId, t.pendingReason.code]),
    ).toEqual([[gated.taskId, 'funding_below_min']])
    const positions = plain((await tty('positions', '--venue', 'hl')).out)
    expect(positions).toMatch(
      /VENUE\s+MARKET\s+SIDE\s+SIZE\s+ENTRY\s+MARK\s+UPNL USD\s+LEV\s+LIQ\s+HELD BY\s+READ/,
    )
    // held by the task's long leg alone
    expect(positions).toMatch(
      new RegExp(
        `task ${taskId.slice(0, 8)} long ${got.task.longSize.replace('.', '\\.')}\\s`,
      ),
    )
    // the leg's size, as the task shows it (0.001 or 0.002 by the price)
    expect(positions).toMatch(
      new RegExp(
        `hl\\s+BTC\\s+long\\s+${got.task.longSize.replace('.', '\\.')}\\s`,
      ),
    )
    const balances = await json<{
      accounts: { venue: string; equityUsd: string | null }[]
    }>('balances')
    expect(balances.accounts.map((a) => a.venue).sort()).toEqual([
      'aster',
      'hl',
    ])
    expect(plain((await tty('balances')).out)).toMatch(
      /VENUE\s+EQUITY USD\s+AVAILABLE USD\s+MARGIN USED USD\s+READ/,
    )
    expect((await tty('tasks', 'cancel', gated.taskId)).code).toBe(0)

    // resize to twice the legs, then wait until it runs again
    const doubled = String(Number(got.task.longSize) * 2)
    const resize = await json<{ status: string }>(
      'tasks',
      'resize',
      taskId,
      '--long-target-base',
      doubled,
      '--short-target-base',
      doubled,
    )
    expect(resize.status).toBe('resizing')
    await waitFor(async () => {
      const t = await json<{
        task: { status: string; longSize: string; shortSize: string }
      }>('tasks', 'get', taskId)
      return (
        t.task.status === 'running' &&
        Number(t.task.longSize) === Number(doubled) &&
        Number(t.task.shortSize) === Number(doubled)
      )
    })
    expect((await tty('tasks', 'resize', taskId)).code).toBe(2)

    const closed = await tty(
      'tasks',
      'close',
      taskId,
      '--wait',
      '--interval',
      '200',
    )
    expect(closed.code).toBe(0)
    expect(plain(closed.out)).toMatch(/status\s+closed/)
    // the legs are gone from the positions dn serves right away, not a
    // periodic read later (issue 32, point 6)
    const after = await json<{
      accounts: { venue: string; positions: { market: string }[] }[]
    }>('positions')
    expect(
      after.accounts.flatMap((a) =>
        a.positions.map((p) => `${a.venue} ${p.market}`),
      ),
    ).toEqual([])

    // a resting buy far under the mark, then cancelled, on a terminal
    const price = String(Math.round((Number(btc?.mark) * 0.5) / 10) * 10)
    const placed = await tty(
      'orders',
      'create',
      '--venue',
      'hl',
      '--market',
      'BTC',
      '--side',
      'long',
      '--size',
      '0.001',
      '--price',
      price,
      '--tif',
      'gtc',
      '--wait',
      '--interval',
      '200',
    )
    expect(placed.code).toBe(0)
    expect(plain(placed.out)).toMatch(/status\s+open/)
    const orderId = /order\s+([0-9a-f-]{36})/.exec(
      plain(placed.out),
    )?.[1] as string
    const cancelled = await tty(
      'orders',
      'cancel',
      orderId,
      '--wait',
      '--interval',
      '200',
    )
    expect(cancelled.code).toBe(0)
    expect(plain(cancelled.out)).toMatch(/status\s+cancelled/)

    // the same as a script: JSON in, JSON out
    const ack = await json<{ orderId: string; status: string }>(
      'orders',
      'create',
      '--venue',
      'hl',
      '--market',
      'BTC',
      '--side',
      'long',
      '--size',
      '0.001',
      '--price',
      price,
    )
    expect(ack.status).toBe('pending')
    const resting = await json<{ order: { status: string } }>(
      'orders',
      'watch',
      ack.orderId,
      '--interval',
      '200',
    )
    expect(resting.order.status).toBe('open')
    const cancel = await json<{ orderId: string; status: string }>(
      'orders',
      'cancel',
      ack.orderId,
    )
    expect(['cancelled', 'cancel_queued']).toContain(cancel.status)
    const gone = await json<{ order: { status: string } }>(
      'orders',
      'watch',
      ack.orderId,
      '--until',
      'cancelled',
      '--interval',
      '200',
    )
    expect(gone.order.status).toBe('cancelled')
    const orders = plain((await tty('orders', 'list')).out)
    expect(orders).toMatch(
      new RegExp(`${orderId}\\s+cancelled\\s+hl\\s+BTC\\s+long\\s+limit gtc`),
    )

    // only an unknown order is resolved by hand: a cancelled one is a conflict
    const resolved = await failing(
      'orders',
      'resolve',
      orderId,
      '--status',
      'cancelled',
      '--filled-base',
      '0',
      '--evidence',
      'checked the hl open orders and fills',
      '--confirm-no-open-order',
      '--confirm-workers-stopped',
    )
    expect(resolved).toMatchObject({ code: 5, body: { status: 409 } })
    const unconfirmed = await tty(
      'orders',
      'resolve',
      orderId,
      '--status',
      'cancelled',
      '--filled-base',
      '0',
      '--evidence',
      'checked the hl open orders and fills',
    )
    expect(unconfirmed.code).toBe(2)
    expect(plain(unconfirmed.out)).toContain(
      'resolving needs --confirm-no-open-order and --confirm-workers-stopped',
    )

    // every venue the key grants, one table
    const everywhere = plain((await tty('markets', '--symbol', 'BTC')).out)
    expect(everywhere).toMatch(/^VENUE\s+SYMBOL\s+TICK/m)
    expect(everywhere).toMatch(/^hl\s+BTC\s/m)
    expect(everywhere).toMatch(/^aster\s+BTCUSDT\s/m)
    expect(everywhere).not.toMatch(/^lighter/m)
    const granted = await json<{ venues: { venue: string }[] }>(
      'markets',
      '--symbol',
      'BTC',
    )
    expect(granted.venues.map((v) => v.venue).sort()).toEqual(['aster', 'hl'])

    const requests = plain((await tty('requests', '--perp')).out)
    expect(requests).toMatch(/TIME\s+ACTION\s+STATUS\s+CODE\s+RESOURCE/)
    const logs = await json<{ requests: { order_id: string | null }[] }>(
      'requests',
      '--perp',
    )
    expect(logs.requests.some((r) => r.order_id === orderId)).toBe(true)

    // every kind of failure: its exit code, in text and as JSON
    const noTask = randomUUID()
    const notFound = await tty('tasks', 'get', noTask)
    expect(notFound.code).toBe(4)
    expect(plain(notFound.out)).toMatch(
      /^dn: .*\(task_not_found, HTTP 404, request [\w-]+\)/m,
    )
    const nf = await failing('tasks', 'get', noTask)
    expect(nf).toEqual({
      code: 4,
      body: {
        error: expect.any(String),
        code: 'task_not_found',
        status: 404,
        requestId: expect.any(String),
      },
    })

    const usage = await tty(
      'tasks',
      'create',
      '--long',
      'hl',
      '--short',
      'aster:BTCUSDT',
      '--size-usd',
      '100',
    )
    expect(usage.code).toBe(2)
    expect(plain(usage.out)).toMatch(/hl is not <venue>:<market>/)
    expect(
      (
        await failing(
          'tasks',
          'create',
          '--long',
          'hl',
          '--short',
          'aster:BTCUSDT',
          '--size-usd',
          '100',
        )
      ).code,
    ).toBe(2)
    const invalid = await failing(
      'orders',
      'create',
      '--venue',
      'hl',
      '--market',
      'NOPE',
      '--side',
      'long',
      '--size',
      '1',
    )
    expect(invalid.code).toBe(2)
    expect(invalid.body.status).toBe(400)

    const auth = await tty(
      'tasks',
      'list',
      '--api-key',
      `dn_local_${randomUUID()}.${'A'.repeat(43)}`,
    )
    expect(auth.code).toBe(3)
    expect(plain(auth.out)).toMatch(/next: /)
    expect(
      (await failing('tasks', 'list', '--api-key', 'bogus')).body,
    ).toMatchObject({ code: 'unauthorized', status: 401 })

    const conflict = await failing('tasks', 'cancel', taskId)
    expect(conflict.code).toBe(5)
    expect(conflict.body.status).toBe(409)

    const dead = `http://127.0.0.1:${await freePort()}`
    const network = await tty('tasks', 'list', '--url', dead)
    expect(network.code).toBe(6)
    expect(plain(network.out)).toContain(
      `dn: cannot reach the service at ${dead} (connection refused)`,
    )
    expect(plain(network.out)).toContain('next: is `dn up` running?')
    expect(await failing('tasks', 'list', '--url', dead)).toEqual({
      code: 6,
      body: {
        error: `cannot reach the service at ${dead} (connection refused)`,
        code: 'network_error',
        status: null,
        requestId: null,
        hint: expect.any(String),
      },
    })

    const timeout = await failing(
      'orders',
      'watch',
      orderId,
      '--until',
      'filled',
      '--timeout',
      '0.5',
    )
    // cancelled is where it stopped: the watch ends, not times out
    expect(timeout.code).toBe(8)
    expect(timeout.body.code).toBe('ended')
    // a task that ends instead of running is not what --wait waited for:
    // exit 8, the task in the error body (issue 32). Held pending by its
    // entry rule: created first, then created again with the same
    // idempotency key and --wait (the same task), and cancelled while the
    // create waits on it
    const heldArgs = [
      ...CREATE_PAIR,
      '--min-funding-apy',
      '999999',
      '--idempotency-key',
      `held-${randomUUID()}`,
    ]
    const { taskId: heldId } = await json<{ taskId: string }>(...heldArgs)
    const held = failing(...heldArgs, '--wait', '--interval', '500')
    await new Promise((r) => setTimeout(r, 1_500))
    await json('tasks', 'cancel', heldId)
    expect(await held).toMatchObject({
      code: 8,
      body: { code: 'ended' },
    })

    const second = await tty(...CREATE_PAIR, '--no-auto-close')
    const secondId = /task ([0-9a-f-]{36})/.exec(
      plain(second.out),
    )?.[1] as string
    await json('tasks', 'watch', secondId, '--interval', '200')
    const waited = await failing(
      'tasks',
      'watch',
      secondId,
      '--until',
      'closed',
      '--timeout',
      '0.5',
      '--interval',
      '100',
    )
    expect(waited).toMatchObject({ code: 7, body: { code: 'wait_timeout' } })
    const ended = await json<{ task: { closeReason: string } }>(
      'tasks',
      'close',
      secondId,
      '--wait',
      '--interval',
      '200',
    )
    // closed as asked: a leg just opened never looked gone (liquidated)
    const first = await json<{ task: { closeReason: string } }>(
      'tasks',
      'get',
      taskId,
    )
    expect(ended.task.closeReason).toBe(first.task.closeReason)
    expect(ended.task.closeReason).not.toBe('leg_liquidated')

    const version = await tty('--version')
    expect(version.code).toBe(0)
    expect(plain(version.out).trim()).toMatch(/^\d+\.\d+\.\d+/)
  }, 240_000)
})
