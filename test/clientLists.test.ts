import { createDnClient, type Task } from '@dn/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopbackServer.js'

const TASKS = '/v1/delta-neutral/tasks'

/** Enough of a task for the client, which does not validate bodies. */
const task = (n: number) => ({ taskId: `t${n}`, status: 'running' }) as Task

/**
 * Serves tasks t1..t5 two per page; the cursor is the index to start at,
 * and the filter must come back with every page.
 */
function servePages(
  url: URL,
  res: Parameters<typeof sendJson>[0],
  key: 'tasks' | 'orders',
) {
  const from = Number(url.searchParams.get('cursor') ?? 0)
  const all = [1, 2, 3, 4, 5].map(task)
  const next = from + 2 < all.length ? String(from + 2) : null
  const items =
    key === 'tasks'
      ? all.slice(from, from + 2)
      : all.slice(from, from + 2).map((t) => ({ orderId: t.taskId }))
  sendJson(res, 200, { [key]: items, nextCursor: next })
}

describe('client lists', () => {
  let server: LoopbackServer
  beforeAll(async () => {
    server = await startLoopbackServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x')
      if (url.pathname === TASKS) return servePages(url, res, 'tasks')
      if (url.pathname === '/v1/perp/orders')
        return servePages(url, res, 'orders')
      if (url.pathname.endsWith('/requests'))
        return sendJson(res, 200, { requests: [{ path: url.pathname }] })
      if (url.pathname === '/v1/markets')
        return sendJson(res, 200, {
          venue: url.searchParams.get('venue'),
          markets: [],
        })
      sendJson(res, 404, { code: 'route_not_found', error: 'no' })
    })
  })
  afterAll(() => server?.close())

  test('default: tasks.list follows nextCursor to the last page', async () => {
    const dn = createDnClient({ baseUrl: server.url })
    const seen: string[] = []
    const before = server.seen.length
    for await (const t of dn.tasks.list({ status: 'running', limit: 2 }))
      seen.push(t.taskId)
    expect(seen).toEqual(['t1', 't2', 't3', 't4', 't5'])
    // the filter goes with every page, as the cursor is bound to it
    expect(server.seen.slice(before)).toEqual([
      `GET ${TASKS}?status=running&limit=2`,
      `GET ${TASKS}?status=running&limit=2&cursor=2`,
      `GET ${TASKS}?status=running&limit=2&cursor=4`,
    ])
  })

  test('behavior: breaking out of the loop fetches no further page', async () => {
    const dn = createDnClient({ baseUrl: server.url })
    const before = server.seen.length
    for await (const t of dn.tasks.list()) {
      expect(t.taskId).toBe('t1')
      break
    }
    expect(server.seen.length - before).toBe(1)
  })

  test('default: tasks.page and orders.page return one page', async () => {
    const dn = createDnClient({ baseUrl: server.url })
    const page = await dn.tasks.page({ cursor: '4' })
    expect(page).toEqual({ tasks: [task(5)], nextCursor: null })
    expect((await dn.orders.page()).nextCursor).toBe('2')
    // the older flat form is the same call
    expect(await dn.listTasks({ cursor: '4' })).toEqual(page)
  })

  test('default: orders.list iterates every order', async () => {
    const dn = createDnClient({ baseUrl: server.url })
    const ids: string[] = []
    for await (const o of dn.orders.list({ status: 'open' }))
      ids.push(o.orderId)
    expect(ids).toEqual(['t1', 't2', 't3', 't4', 't5'])
  })

  test('default: markets.list and requests.list', async () => {
    const dn = createDnClient({ baseUrl: server.url })
    expect(await dn.markets.list({ venue: 'hl' })).toEqual({
      venue: 'hl',
      markets: [],
    })
    expect(await dn.markets({ venue: 'aster' })).toMatchObject({
      venue: 'aster',
    })
    expect(await dn.requests.list()).toEqual([{ path: '/v1/requests' }])
    expect(await dn.requests.list({ perp: true })).toEqual([
      { path: '/v1/perp/requests' },
    ])
  })

  test('types: list filters take the status union', () => {
    const dn = createDnClient({ baseUrl: server.url })
    // @ts-expect-error not a task status
    dn.tasks.list({ status: 'runing' })
    // @ts-expect-error an order status is not a task status
    dn.tasks.list({ status: 'filled' })
    dn.orders.list({ status: 'filled' })
  })
})
