import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type DeploymentBed,
  openDeploymentBed,
} from './support/deploymentBed.js'
import type { SpawnedDn } from './support/spawnDn.js'

const IDLE = 21_000
/** client addresses the idle connections come from (127.0.0.2, …) */
const ADDRESSES = 21
const MAX_CONNECTIONS = 4_096

/**
 * Opens IDLE connections to host:port from ADDRESSES loopback addresses,
 * 1,000 each (under the per-client cap, so the total cap is what holds),
 * sends nothing on them, and prints what happened once all were tried.
 */
const ATTACKER = `
const net = require('node:net')
const [host, port, total, addresses] = process.argv.slice(1).map((v, i) => i ? Number(v) : v)
let opened = 0, failed = 0, closed = 0
const held = []
function one(i) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port, localAddress: '127.0.0.' + (2 + (i % addresses)) })
    let connected = false
    s.on('error', () => {})
    s.once('connect', () => { connected = true; opened++; held.push(s); resolve() })
    s.once('close', () => { if (connected) closed++; else { failed++; resolve() } })
  })
}
;(async () => {
  for (let i = 0; i < total; i += 500) {
    await Promise.all(Array.from({ length: Math.min(500, total - i) }, (_, j) => one(i + j)))
  }
  await new Promise((r) => setTimeout(r, 500))
  process.stdout.write(JSON.stringify({ opened, failed, closed, open: opened - closed }) + '\\n')
  process.stdin.on('end', () => process.exit(0))
  process.stdin.resume()
})()
`

/** GET /health on a new connection every 20 ms until stdin ends; prints the latencies. */
const PROBER = `
const http = require('node:http')
const url = process.argv[1]
const ms = []
let stop = false, failures = 0
process.stdin.on('end', () => { stop = true })
process.stdin.resume()
;(async () => {
  while (!stop) {
    const t = performance.now()
    await new Promise((resolve) => {
      const req = http.get(url + '/health', { agent: false, timeout: 5000 }, (res) => {
        res.resume()
        res.on('end', () => { if (res.statusCode === 200) ms.push(performance.now() - t); else failures++; resolve() })
      })
      req.on('error', () => { failures++; resolve() })
      req.on('timeout', () => req.destroy())
    })
    await new Promise((r) => setTimeout(r, 20))
  }
  process.stdout.write(JSON.stringify({ ms, failures }) + '\\n')
})()
`

function runScript(script: string, args: readonly string[]) {
  const child = spawn(process.execPath, ['-e', script, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  const line = () =>
    new Promise<string>((resolve, reject) => {
      const look = () => {
        const nl = out.indexOf('\n')
        if (nl >= 0) return resolve(out.slice(0, nl))
        if (child.exitCode !== null) return reject(new Error('exited'))
        setTimeout(look, 50)
      }
      look()
    })
  return {
    line,
    end: () => child.stdin.end(),
    exited: new Promise<void>((r) => child.once('exit', () => r())),
    kill: () => child.kill('SIGKILL'),
  }
}

const rssKb = (pid: number) =>
  Number(
    /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1],
  )

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return (
    sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? NaN
  )
}

/**
 * 21,000 connections that never send a byte, against `dn serve`: the
 * server keeps at most its cap open, closing the oldest idle ones, and
 * `/health` (probed from another process) keeps answering.
 */
describe('idle connections against dn serve', () => {
  let bed: DeploymentBed
  let server: SpawnedDn
  let api: string

  beforeAll(async () => {
    bed = await openDeploymentBed('sqlite')
    server = bed.dn(['serve', '--port', '0'], 'idle-conns', {
      ...bed.urls(),
      DN_VENUE_STREAMS: 'false',
      DN_HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    })
    api = await server.apiUrl()
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
    await bed?.close()
  })

  test(`${IDLE} idle connections: /health p99 within 100 ms, the server keeps its cap, RSS bounded`, async () => {
    const pid = server.child.pid as number
    const { hostname, port } = new URL(api)
    // warm: the first answers load code
    for (let i = 0; i < 20; i++) await fetch(`${api}/health`)
    const rssBefore = rssKb(pid)
    const prober = runScript(PROBER, [api])
    const attacker = runScript(ATTACKER, [
      hostname,
      port,
      String(IDLE),
      String(ADDRESSES),
    ])
    try {
      const attack = JSON.parse(await attacker.line()) as {
        opened: number
        failed: number
        closed: number
        open: number
      }
      // probe on a little while the idle connections sit there
      await new Promise((r) => setTimeout(r, 2_000))
      const rssAfter = rssKb(pid)
      prober.end()
      const probe = JSON.parse(await prober.line()) as {
        ms: number[]
        failures: number
      }
      const p99 = percentile(probe.ms, 0.99)
      console.info(
        `idle connections: ${JSON.stringify(attack)}; /health ${probe.ms.length} probes, p50 ${percentile(probe.ms, 0.5).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, ${probe.failures} failed; RSS ${Math.round(rssBefore / 1024)} → ${Math.round(rssAfter / 1024)} MB`,
      )
      // every connection was accepted, and the oldest idle were closed
      expect(attack.opened).toBe(IDLE)
      expect(attack.failed).toBe(0)
      expect(attack.open).toBeLessThanOrEqual(MAX_CONNECTIONS)
      expect(attack.closed).toBeGreaterThanOrEqual(IDLE - MAX_CONNECTIONS)
      expect(probe.failures).toBe(0)
      expect(probe.ms.length).toBeGreaterThan(20)
      expect(p99).toBeLessThanOrEqual(100)
      // about 25 KB a connection held, at most the cap of them
      expect(rssAfter - rssBefore).toBeLessThan(200 * 1024)
      expect(server.child.exitCode).toBeNull()
    } finally {
      attacker.end()
      prober.end()
      await Promise.race([
        Promise.all([attacker.exited, prober.exited]),
        new Promise((r) => setTimeout(r, 5_000)),
      ])
      attacker.kill()
      prober.kill()
    }
  }, 180_000)
})
