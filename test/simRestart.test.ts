import { execFile } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import {
  cred,
  get,
  type Json,
  orderStatusBecomes,
  positions,
  post,
  rpc,
  sleep,
  taskStatusBecomes,
  venueOrder,
} from './support/dnUpCalls.js'
import { type SpawnedUp, spawnDnUp, startDnUp } from './support/dnUpProcess.js'
import { freePort } from './support/freePort.js'

const run = promisify(execFile)

type Up = SpawnedUp

interface Trading {
  readonly wallet: string
  readonly owner: string
  readonly key: string
  readonly taskId: string
  readonly orderId: string
}

/**
 * Issue 16 point 4: `dn up` stopped and started again on the same data
 * folder goes on with the same simulated venues, so what it runs there
 * (a paired task, a resting order) can still be closed and cancelled.
 */
describe('the simulator survives a restart of dn up', () => {
  let cli: string
  let dir: string
  const running: Up[] = []

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-sim-restart-'))
  }, 120_000)

  afterAll(async () => {
    for (const up of running) {
      if (up.child.exitCode === null && up.child.signalCode === null) {
        up.child.kill('SIGKILL')
        await up.exit
      }
    }
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  async function startUp(
    data: string,
    port: number,
    simPort: number,
    extra: readonly string[] = [],
  ): Promise<Up> {
    const up = await startDnUp(cli, data, { port, simPort, extra })
    running.push(up)
    return up
  }

  async function dn(...args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, DN_MASTER_KEY: '', DN_PRIVATE_KEY: '' },
      timeout: 60_000,
    })
    return stdout
  }

  /** A wallet bound on hl and aster, a running task, a resting order. */
  async function trade(api: string, sim: string, name: string) {
    const wallet = join(dir, `${name}-wallet.json`)
    const owner = /0x[0-9a-fA-F]{40}/.exec(
      await dn('wallet', 'new', '--file', wallet),
    )?.[0] as string
    await dn('faucet', '--wallet', wallet, '--sim-url', sim, '--json')
    const bound = await dn(
      'bind',
      '--venues',
      'hl,aster',
      '--wallet',
      wallet,
      '--url',
      api,
    )
    expect(bound).toMatch(/hl\s+bound/)
    expect(bound).toMatch(/aster\s+bound/)
    const key = (
      await dn(
        'keys',
        'create',
        '--venues',
        'hl,aster',
        '--max-size-usd',
        '5000',
        '--wallet',
        wallet,
        '--url',
        api,
      )
    ).trim()
    const { taskId } = await post(api, key, '/v1/delta-neutral/tasks', {
      longVenue: 'hl',
      shortVenue: 'aster',
      longMarket: 'BTC',
      shortMarket: 'BTCUSDT',
      sizeUsd: 1000,
      autoClose: false,
    })
    expect(await taskStatusBecomes(api, key, taskId as string, 'running')).toBe(
      'running',
    )
    // far below the mark: it rests
    const { orderId } = await post(api, key, '/v1/perp/orders', {
      venue: 'hl',
      market: 'ETH',
      side: 'long',
      orderType: 'limit',
      sizeBase: 0.01,
      limitPrice: 1500,
      timeInForce: 'gtc',
    })
    expect(
      await orderStatusBecomes(api, key, orderId as string, ['open']),
    ).toBe('open')
    return {
      wallet,
      owner,
      key,
      taskId: taskId as string,
      orderId: orderId as string,
    } satisfies Trading
  }

  /** After the restart: the task closes flat, the order cancels away. */
  async function finish(api: string, sim: string, t: Trading) {
    const task = await get(api, t.key, `/v1/delta-neutral/tasks/${t.taskId}`)
    expect((task.task as Json).status).toBe('running')
    // its legs are still at the venues
    const hl = await positions(sim, 'hl', t.owner, 'BTC')
    const aster = await positions(sim, 'aster', t.owner, 'BTCUSDT')
    expect(Number(hl)).toBeGreaterThan(0)
    expect(Number(aster)).toBeLessThan(0)
    const before = await get(api, t.key, `/v1/perp/orders/${t.orderId}`)
    const cloid = (before.order as Json).clientOrderId as string
    expect(await venueOrder(sim, t.owner, cloid)).toMatchObject({
      state: 'open',
    })

    await post(api, t.key, `/v1/delta-neutral/tasks/${t.taskId}/close`, {})
    expect(await taskStatusBecomes(api, t.key, t.taskId, 'closed')).toBe(
      'closed',
    )
    expect(Number(await positions(sim, 'hl', t.owner, 'BTC'))).toBe(0)
    expect(Number(await positions(sim, 'aster', t.owner, 'BTCUSDT'))).toBe(0)

    await post(api, t.key, `/v1/perp/orders/${t.orderId}/cancel`, {})
    expect(await orderStatusBecomes(api, t.key, t.orderId, ['cancelled'])).toBe(
      'cancelled',
    )
    expect(await venueOrder(sim, t.owner, cloid)).toMatchObject({
      state: 'cancelled',
    })
  }

  test('SIGTERM: saved on the way out; the task closes and the order cancels after the restart', async () => {
    const data = join(dir, 'term')
    const [port, simPort] = [await freePort(), await freePort()]
    const api = `http://127.0.0.1:${port}`
    const sim = `http://127.0.0.1:${simPort}`
    const first = await startUp(data, port, simPort)
    expect(first.err()).not.toMatch(/restored/)
    const t = await trade(api, sim, 'term')

    first.child.kill('SIGTERM')
    expect(await first.exit).toBe(0)
    const file = join(data, 'sim-state.json')
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1)

    const second = await startUp(data, port, simPort)
    expect(second.err()).toContain(`simulated venues restored from ${file}`)
    await finish(api, sim, t)
    second.child.kill('SIGTERM')
    expect(await second.exit).toBe(0)
  }, 240_000)

  test('SIGKILL right after the order rests: what the venues acknowledged was saved before they answered; the task closes and the order cancels (issue 32)', async () => {
    const data = join(dir, 'kill')
    const [port, simPort] = [await freePort(), await freePort()]
    const api = `http://127.0.0.1:${port}`
    const sim = `http://127.0.0.1:${simPort}`
    const first = await startUp(data, port, simPort)
    const t = await trade(api, sim, 'kill')
    // no wait for the saver's timer: the fake's answer waited for the save
    first.child.kill('SIGKILL')
    await first.exit

    const second = await startUp(data, port, simPort)
    expect(second.err()).toContain('simulated venues restored from')
    await finish(api, sim, t)
    second.child.kill('SIGTERM')
    expect(await second.exit).toBe(0)
  }, 240_000)

  test('--funding-interval 10s: the venues settle every 10 s and the running task books it within a minute, across a restart', async () => {
    const data = join(dir, 'funding')
    const [port, simPort] = [await freePort(), await freePort()]
    const api = `http://127.0.0.1:${port}`
    const sim = `http://127.0.0.1:${simPort}`
    const first = await startUp(data, port, simPort, [
      '--funding-interval',
      '10s',
    ])
    const t = await trade(api, sim, 'funding')
    const quote = (await rpc(sim, 'aster', 'quote', ['BTCUSDT'])) as Json
    // the next 10 s boundary (or the one after, when one just passed)
    const next = quote.nextFundingAt as number
    expect(next % 10_000).toBe(0)
    expect(next - Date.now()).toBeLessThanOrEqual(10_000)
    first.child.kill('SIGTERM')
    expect(await first.exit).toBe(0)
    await startUp(data, port, simPort, ['--funding-interval', '10s'])
    // settlements every 10 s, read 45 s after one (FUNDING_READ_LAG_MS)
    let funding = '0'
    for (let i = 0; i < 90 && Number(funding) === 0; i++) {
      await sleep(1000)
      const task = await get(api, t.key, `/v1/delta-neutral/tasks/${t.taskId}`)
      funding = (task.task as Json).fundingUsd as string
    }
    expect(Number(funding)).not.toBe(0)
    // both legs paid or earned: several settlements on each venue within
    // the next half minute: the loop above stops at the first booked
    // payment, which may be the first settlement after the restart
    for (const [venue, market] of [
      ['hl', 'BTC'],
      ['aster', 'BTCUSDT'],
    ] as const) {
      let paid: unknown[] = []
      for (let i = 0; i < 30 && paid.length <= 2; i++) {
        if (i > 0) await sleep(1000)
        paid = (await rpc(sim, venue, 'funding', [
          cred(venue, t.owner),
          market,
          new Date(0).toISOString(),
        ])) as unknown[]
      }
      expect(paid.length).toBeGreaterThan(2)
    }
  }, 240_000)

  test('a saved simulator of another version stops dn up, naming the file and what to do', async () => {
    const data = join(dir, 'other-version')
    const file = join(data, 'sim-state.json')
    mkdirSync(data)
    writeFileSync(
      file,
      JSON.stringify({ version: 99, savedAt: 0, sim: {}, fakes: {} }),
    )
    const [port, simPort] = [await freePort(), await freePort()]
    const refused = spawnDnUp(cli, data, port, simPort)
    const code = await refused.exit
    const err = refused.err()
    expect(code).toBe(1)
    expect(err).toBe(
      `dn: ${file}: is version 99, this dn reads version 1; the simulated venues cannot go on from it. Move it away (e.g. mv ${file} ${file}.old) to start them afresh: tasks and orders on them will then not be found there\n`,
    )
  }, 60_000)
})
