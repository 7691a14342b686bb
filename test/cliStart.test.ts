import { spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'
import { freePort, freePortRun } from './support/freePort.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

/** Runs `dn` to its exit (or until `until` shows on stderr, then SIGTERM). */
function runDn(
  cli: string,
  args: readonly string[],
  until?: RegExp,
): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, DN_MASTER_KEY: undefined },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let err = ''
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString()
      if (until?.test(err)) child.kill('SIGTERM')
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, err })
    })
  })
}

/** `dn up` on any free ports with a data folder, and more flags. */
const upOnFreePorts = (data: string, ...flags: string[]) => [
  'up',
  '--port',
  '0',
  '--sim-port',
  '0',
  ...flags,
  '--data',
  data,
]

describe('dn up starting', () => {
  let cli: string
  let dir: string
  let busy: Server
  let busyPort: number

  beforeAll(async () => {
    cli = await bundleCli()
    dir = mkdtempSync(join(tmpdir(), 'dn-start-'))
    busy = createServer()
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    busyPort = (busy.address() as { port: number }).port
  }, 120_000)

  afterAll(async () => {
    await new Promise((r) => busy?.close(r))
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  test('a busy API port names the flag that moves it, before writing anything', async () => {
    const data = join(dir, 'busy-api')
    const r = await runDn(cli, [
      'up',
      '--port',
      String(busyPort),
      '--sim-port',
      '0',
      '--data',
      data,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      `dn: port ${busyPort} on 127.0.0.1 (the API) is in use, by another dn or another program; choose a free one with --port <port> (or DN_PORT)\n`,
    )
    // no master key, no database
    expect(existsSync(data)).toBe(false)
  })

  test('a busy simulator port names --sim-port', async () => {
    const data = join(dir, 'busy-sim')
    const r = await runDn(cli, [
      'up',
      '--port',
      '0',
      '--sim-port',
      String(busyPort),
      '--data',
      data,
    ])
    expect(r.code).toBe(1)
    expect(r.err).toContain(
      `port ${busyPort} on 127.0.0.1 (the simulated venues and faucet) is in use`,
    )
    expect(r.err).toContain('--sim-port <port>')
    expect(existsSync(data)).toBe(false)
  })

  test('a first start says where everything is and what to do next; the database is readable by its owner only', async () => {
    const data = join(dir, 'fresh')
    const [port, simPort] = [await freePort(), await freePort()]
    const r = await runDn(
      cli,
      [
        'up',
        '--port',
        String(port),
        '--sim-port',
        String(simPort),
        '--data',
        data,
      ],
      /Ctrl-C stops\n/,
    )
    const lines = r.err.trim().split('\n')
    expect(lines[0]).toMatch(/created a master key .* \(mode 0600\)/)
    expect(lines[1]).toBe(
      `dn: api http://127.0.0.1:${port}, simulated venues http://127.0.0.1:${simPort} (POST /faucet), worker running (store: sqlite, env: local)`,
    )
    expect(lines[2]).toMatch(
      /^dn: venue protocols: hl http:\/\/127\.0\.0\.1:\d+, lighter http:\/\/127\.0\.0\.1:\d+, lighter-mainnet http:\/\/127\.0\.0\.1:\d+, aster http:\/\/127\.0\.0\.1:\d+$/,
    )
    const api = `http://127.0.0.1:${port}`
    expect(lines[3]).toBe(
      `dn: in a browser: dashboard ${api}/, bind a wallet ${api}/bind, API reference ${api}/docs; Prometheus ${api}/metrics`,
    )
    expect(lines[4]).toMatch(
      /^dn: next, in another terminal: npx dn wallet new/,
    )
    expect(lines[5]).toMatch(/^dn: stopped on SIGTERM/)
    expect(r.code).toBe(0)
    expect(statSync(join(data, 'dn.sqlite')).mode & 0o777).toBe(0o600)
    expect(statSync(join(data, 'master.key')).mode & 0o777).toBe(0o600)
  })

  test('a port that is not a number is named with its flag, before anything is written', async () => {
    const data = join(dir, 'bad-port')
    for (const [flag, value, named] of [
      ['--port', 'abc', '--port <port> (or DN_PORT)'],
      ['--sim-port', '70000', '--sim-port <port>'],
      ['--venue-ports', '65533', '--venue-ports <first> (or DN_VENUE_PORTS)'],
    ] as const) {
      const r = await runDn(cli, upOnFreePorts(data, flag, value))
      expect(r.code).toBe(1)
      expect(r.err).toBe(
        `dn: ${named} must be a port number from 0 (any free port) to ${flag === '--venue-ports' ? 65532 : 65535}, not "${value}"\n`,
      )
    }
    expect(existsSync(data)).toBe(false)
  })

  test('--venue-ports pins the protocol fakes one after another, for clients pointed at them', async () => {
    const data = join(dir, 'pinned')
    const first = await freePortRun(4)
    const r = await runDn(
      cli,
      upOnFreePorts(data, '--venue-ports', String(first)),
      /Ctrl-C stops\n/,
    )
    const at = (i: number) => `http://127.0.0.1:${first + i}`
    expect(r.err).toContain(
      `dn: venue protocols: hl ${at(0)}, lighter ${at(1)}, lighter-mainnet ${at(2)}, aster ${at(3)}\n`,
    )
    expect(r.code).toBe(0)
  })

  test('a busy port among --venue-ports names the fake and the flag, before anything is written', async () => {
    const data = join(dir, 'busy-venue')
    // the second port of a free run taken: the lighter fake's
    const first = await freePortRun(4)
    const taken = createServer()
    await new Promise<void>((r) => taken.listen(first + 1, '127.0.0.1', r))
    const r = await runDn(
      cli,
      upOnFreePorts(data, '--venue-ports', String(first)),
    ).finally(() => new Promise((r) => taken.close(r)))
    expect(r.code).toBe(1)
    expect(r.err).toBe(
      `dn: port ${first + 1} on 127.0.0.1 (the lighter protocol fake) is in use, by another dn or another program; choose a free one with --venue-ports <first> (or DN_VENUE_PORTS)\n`,
    )
    expect(existsSync(data)).toBe(false)
  })

  test('`npx dn` runs the CLI: npm links its bin at install, before any build', async () => {
    // the bin is a file of the repository, not of the build: npm links it
    // at install, when no dist/ exists yet
    const bin = join(ROOT, 'node_modules', '.bin', 'dn')
    expect(realpathSync(bin)).toBe(join(ROOT, 'packages/cli/bin/dn.js'))
    // the shim beside a package folder without a build, then with one
    // (the bundled CLI as its dist/main.js)
    const pkg = join(dirname(cli), 'shim')
    mkdirSync(join(pkg, 'bin'), { recursive: true })
    copyFileSync(join(ROOT, 'packages/cli/bin/dn.js'), join(pkg, 'bin/dn.js'))
    const run = () =>
      new Promise<{ code: number | null; out: string; err: string }>(
        (resolve) => {
          // through its shebang, as npx runs it (its node flags included)
          const child = spawn(join(pkg, 'bin/dn.js'), ['--help'], {
            env: {
              ...process.env,
              PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          })
          let out = ''
          let err = ''
          child.stdout?.on('data', (d: Buffer) => {
            out += d.toString()
          })
          child.stderr?.on('data', (d: Buffer) => {
            err += d.toString()
          })
          child.once('exit', (code) => resolve({ code, out, err }))
        },
      )
    const unbuilt = await run()
    expect(unbuilt.code).toBe(1)
    expect(unbuilt.err).toBe(
      'dn: not built yet: run `npm run build` (or `npm start`) in the repository first\n',
    )
    mkdirSync(join(pkg, 'dist'))
    copyFileSync(cli, join(pkg, 'dist/main.js'))
    const built = await run()
    expect(built.code).toBe(0)
    expect(built.out).toMatch(/^Usage: dn /)
  })

  test("`npm start` gives node the flags of the bin's shebang", () => {
    const shebang =
      readFileSync(join(ROOT, 'packages/cli/bin/dn.js'), 'utf8').split(
        '\n',
      )[0] ?? ''
    const flags = shebang.replace(/^#!\/usr\/bin\/env -S node/, '').trim()
    expect(flags).toMatch(/^--\S+/)
    const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
      .scripts.start as string
    expect(start).toContain(`node ${flags} packages/cli/bin/dn.js up`)
  })
})
