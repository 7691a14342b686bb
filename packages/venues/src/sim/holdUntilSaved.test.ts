import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { holdUntilSaved } from './holdUntilSaved.js'

let server: Server | undefined
afterEach(async () => {
  await new Promise((r) => server?.close(r))
  server = undefined
})

/** A server whose `/write` changes its state and `/read` does not. */
async function start(durable: () => Promise<void>) {
  let version = 0
  server = createServer((req, res) => {
    holdUntilSaved(res, () => version, durable)
    if (req.url === '/write') version += 1
    res.end(`v${version}`)
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return (path: string) => fetch(`http://127.0.0.1:${port}${path}`)
}

test('behavior: an answer that acknowledged a change waits for its save; one that changed nothing does not', async () => {
  let saves = 0
  let release: () => void = () => {}
  const ask = await start(() => {
    saves++
    return new Promise<void>((r) => {
      release = r
    })
  })
  expect(await (await ask('/read')).text()).toBe('v0')
  expect(saves).toBe(0)
  let answered = false
  const write = ask('/write').then(async (r) => {
    answered = true
    return r.text()
  })
  await new Promise((r) => setTimeout(r, 50))
  expect(saves).toBe(1)
  expect(answered).toBe(false)
  release()
  expect(await write).toBe('v1')
})

test('error: a save that fails drops the answer (the caller cannot tell)', async () => {
  const ask = await start(() => Promise.reject(new Error('disk full')))
  await expect(ask('/write')).rejects.toThrow()
  expect(await (await ask('/read')).text()).toBe('v1')
})
