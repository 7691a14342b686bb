import { createDnClient, DnApiError, type DnClientOptions } from '@dn/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  bindVenues,
  dialects,
  startTestService,
  type TestService,
} from './support/testService.js'
import { newWallet } from './support/wallet.js'

const task = {
  longVenue: 'hl',
  shortVenue: 'aster',
  longMarket: 'BTC',
  shortMarket: 'BTCUSDT',
  sizeUsd: 500,
} as const

describe.each(dialects())('@dn/client against the service (%s)', (dialect) => {
  let svc: TestService
  beforeAll(async () => {
    svc = await startTestService({ dialect })
  })
  afterAll(() => svc?.close())

  async function keyedClient(o: Partial<DnClientOptions> = {}) {
    const wallet = newWallet()
    await bindVenues(svc.store, wallet.address, ['hl', 'aster'])
    const anon = createDnClient({ baseUrl: svc.url })
    const created = await anon.createApiKey(wallet, {
      venues: ['hl', 'aster'],
      maxSizeUsd: 10_000,
      label: 'bot',
    })
    return {
      wallet,
      created,
      client: createDnClient({
        baseUrl: svc.url,
        apiKey: created.apiKey,
        ...o,
      }),
    }
  }

  test('default: key lifecycle, a task and an order through typed calls', async () => {
    const { wallet, created, client } = await keyedClient()
    expect(created).toMatchObject({
      label: 'bot',
      maxSizeUsd: '10000',
      venues: ['aster', 'hl'],
    })
    const { taskId } = await client.createTask(task)
    expect((await client.getTask(taskId)).status).toBe('pending')
    expect(
      (await client.listTasks({ limit: 5 })).tasks.map((t) => t.taskId),
    ).toEqual([taskId])
    const { orderId } = await client.createOrder({
      venue: 'hl',
      market: 'BTC',
      side: 'long',
      orderType: 'limit',
      sizeBase: 0.001,
      limitPrice: 99_000,
    })
    expect(await client.cancelOrder(orderId)).toEqual({
      orderId,
      status: 'cancelled',
    })
    const seen: string[] = []
    const order = await client.waitForOrder(orderId, {
      intervalMs: 10,
      onPoll: (s) => seen.push(s),
    })
    expect(order.status).toBe('cancelled')
    expect(seen).toEqual(['cancelled'])
    expect((await client.perpRequests()).map((r) => r.action)).toEqual([
      'order.cancel',
      'order.create',
    ])
    const keys = await client.listApiKeys(wallet)
    expect(keys.map((k) => k.keyId)).toEqual([created.keyId])
    await client.revokeApiKey(wallet, created.keyId)
    await expect(client.getTask(taskId)).rejects.toMatchObject({
      status: 401,
      code: 'unauthorized',
    })
  })

  test('behavior: a lost response is retried with the same Idempotency-Key and runs once', async () => {
    let dropped = 0
    const lossy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init)
      if (init?.method === 'POST' && dropped === 0) {
        dropped++
        throw new TypeError('socket hang up after the server committed')
      }
      return res
    }
    const { client, created } = await keyedClient({
      fetchFn: lossy,
      retryDelay: 1,
    })
    const { taskId } = await client.createTask(task)
    expect(dropped).toBe(1)
    const owner = created.owner
    const all = await svc.store.tasks.list({
      owner,
      venues: ['hl', 'aster'],
      limit: 10,
    })
    expect(all.map((t) => t.id)).toEqual([taskId])
  })

  test('behavior: a 503 is retried, other errors surface with their code', async () => {
    let calls = 0
    const flaky: typeof fetch = async (input, init) => {
      calls++
      if (calls === 1)
        return new Response('{"error":"busy","code":"service_unavailable"}', {
          status: 503,
        })
      return fetch(input, init)
    }
    const { client } = await keyedClient({ fetchFn: flaky, retryDelay: 1 })
    expect((await client.health()).ok).toBe(true)
    expect(calls).toBe(2)
    const err = await client
      .createTask({ ...task, sizeUsd: 5 })
      .catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DnApiError)
    expect(err).toMatchObject({ status: 400, code: 'invalid_body' })
  })
})
