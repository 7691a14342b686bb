import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { type DnUpProcess, startDnUp } from './support/dnUpProcess.js'

const run = promisify(execFile)

/**
 * A new user on a fresh `dn up`: a dev wallet, play money on the simulated
 * venues, all four venues bound by wallet signature, an API key, and a
 * paired task that the worker opens, all through the `dn` command.
 */
describe('dn bind as a new user would', () => {
  let cli: string
  let dir: string
  let up: DnUpProcess | undefined
  let api: string
  let sim: string
  const transcript: string[] = []

  async function dn(...args: string[]): Promise<string> {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, DN_MASTER_KEY: '', DN_PRIVATE_KEY: '' },
      timeout: 60_000,
    })
    transcript.push(`$ dn ${args.join(' ')}\n${stdout}${stderr}`)
    return stdout
  }

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-bind-'))
    up = await startDnUp(cli, join(dir, 'data'))
    api = up.api
    sim = up.sim
  }, 60_000)

  afterAll(() => {
    up?.child.kill('SIGTERM')
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
    if (process.env.DN_SHOW_TRANSCRIPT) console.info(transcript.join('\n'))
  })

  test('wallet → faucet → bind four venues → key → a running task', async () => {
    const wallet = join(dir, 'wallet.json')
    expect(await dn('wallet', 'new', '--file', wallet)).toMatch(
      /^wallet 0x[0-9a-fA-F]{40} written/,
    )
    expect(statSync(wallet).mode & 0o777).toBe(0o600)
    const funded = JSON.parse(
      await dn('faucet', '--wallet', wallet, '--sim-url', sim, '--json'),
    ) as { venue: string; accountIndex: number }[]
    const index = Object.fromEntries(
      funded.map((f) => [f.venue, f.accountIndex]),
    )
    const venues = `hl,aster,lighter:${index.lighter},lighter-mainnet:${index['lighter-mainnet']}`
    const bound = await dn(
      'bind',
      '--venues',
      venues,
      '--wallet',
      wallet,
      '--url',
      api,
    )
    expect(bound).toMatch(/binding [0-9a-f-]{36}: bound/)
    for (const v of ['hl', 'aster', 'lighter', 'lighter-mainnet'])
      expect(bound).toMatch(new RegExp(`${v}\\s+bound`))
    const again = await dn(
      'bind',
      '--venues',
      'hl',
      '--wallet',
      wallet,
      '--url',
      api,
    )
    expect(again).toMatch(/hl\s+already_bound/)
    const key = (
      await dn(
        'keys',
        'create',
        '--venues',
        'hl,aster',
        '--max-size-usd',
        '5000',
        '--label',
        'bot',
        '--wallet',
        wallet,
        '--url',
        api,
      )
    ).trim()
    expect(key).toMatch(/^dn_local_[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/)
    expect(await dn('keys', 'list', '--wallet', wallet, '--url', api)).toMatch(
      /bot\s+aster,hl\s+5000/,
    )
    const res = await fetch(`${api}/v1/delta-neutral/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': 'first-task',
      },
      body: JSON.stringify({
        longVenue: 'hl',
        shortVenue: 'aster',
        longMarket: 'BTC',
        shortMarket: 'BTCUSDT',
        sizeUsd: 1000,
        autoClose: false,
      }),
    })
    expect(res.status).toBe(202)
    const { taskId } = (await res.json()) as { taskId: string }
    let status = ''
    for (let i = 0; i < 100 && status !== 'running'; i++) {
      await new Promise((r) => setTimeout(r, 100))
      const t = await fetch(`${api}/v1/delta-neutral/tasks/${taskId}`, {
        headers: { authorization: `Bearer ${key}` },
      })
      status = ((await t.json()) as { task: { status: string } }).task.status
    }
    expect(status).toBe('running')
  }, 120_000)

  test('SIGINT: dn up stops its API and worker, says what it left, exits 0', async () => {
    const started = up as DnUpProcess
    started.child.kill('SIGINT')
    expect(await started.exit).toBe(0)
    expect(started.err()).toMatch(
      /dn: stopped on SIGINT in [\d.]+ s: every request answered; no work in flight/,
    )
    const refused = await fetch(`${api}/health`).then(
      () => false,
      () => true,
    )
    expect(refused).toBe(true)
  }, 30_000)
})
