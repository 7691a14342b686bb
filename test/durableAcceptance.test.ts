import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { get } from './support/dnUpCalls.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'
import { runPiped } from './support/runCli.js'

const BURST = 120

/**
 * Issue 18: a 202 means the command is on disk. Concurrent commands share
 * one commit (group commit), and none is answered before that commit: a
 * `dn up` killed (SIGKILL, no shutdown of any kind) the moment the burst's
 * 202s are in has every one of those orders after a restart.
 */
describe('durable acceptance under group commit', () => {
  let cli: string
  let dir: string
  const running: DnUpProcess[] = []

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-durable-'))
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

  async function dn(...args: string[]): Promise<string> {
    const r = await runPiped(cli, args, {
      DN_MASTER_KEY: '',
      DN_PRIVATE_KEY: '',
    })
    if (r.code !== 0) throw new Error(`dn ${args[0]}: ${r.err}`)
    return r.out
  }

  test('every order answered 202 before a SIGKILL is there after the restart', async () => {
    const data = join(dir, 'data')
    const up = await startDnUp(cli, data)
    running.push(up)
    const wallet = join(dir, 'wallet.json')
    await dn('wallet', 'new', '--file', wallet)
    await dn('faucet', '--wallet', wallet, '--sim-url', up.sim, '--json')
    await dn(
      'bind',
      '--venues',
      'hl,aster',
      '--wallet',
      wallet,
      '--url',
      up.api,
    )
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
        up.api,
      )
    ).trim()

    // a burst of orders; the process dies as soon as half have their 202,
    // the rest still in flight
    const accepted: string[] = []
    let killed = false
    const kill = () => {
      if (killed) return
      killed = true
      up.child.kill('SIGKILL')
    }
    await Promise.allSettled(
      Array.from({ length: BURST }, async (_, i) => {
        const res = await fetch(`${up.api}/v1/perp/orders`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': `durable-${i}`,
          },
          body: JSON.stringify({
            venue: i % 2 === 0 ? 'hl' : 'aster',
            market: i % 2 === 0 ? 'ETH' : 'ETHUSDT',
            side: 'long',
            orderType: 'limit',
            sizeBase: 0.01,
            limitPrice: 1500,
            timeInForce: 'gtc',
          }),
        })
        if (res.status !== 202) return
        const body = (await res.json()) as { orderId: string }
        accepted.push(body.orderId)
        if (accepted.length >= BURST / 2) kill()
      }),
    )
    kill()
    await up.exit
    expect(up.child.signalCode).toBe('SIGKILL')
    expect(accepted.length).toBeGreaterThanOrEqual(BURST / 2)

    const again = await startDnUp(cli, data)
    running.push(again)
    for (const orderId of accepted) {
      const found = await get(again.api, key, `/v1/perp/orders/${orderId}`)
      const order = found.order as { orderId?: string } | undefined
      expect(order?.orderId, `order ${orderId} after the restart`).toBe(orderId)
    }
    // replaying an accepted command's key answers the same order, not a new one
    const replay = await fetch(`${again.api}/v1/perp/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'durable-0',
      },
      body: JSON.stringify({
        venue: 'hl',
        market: 'ETH',
        side: 'long',
        orderType: 'limit',
        sizeBase: 0.01,
        limitPrice: 1500,
        timeInForce: 'gtc',
      }),
    })
    expect([200, 202]).toContain(replay.status)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    await again.stop()
  }, 180_000)
})
