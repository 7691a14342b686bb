import {
  createDnClient,
  DnError,
  DnTimeoutError,
  DnWaitError,
  type PerpOrder,
  type Task,
  type VenueBindingBatch,
  type WalletSigner,
} from '@dn/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type LoopbackServer,
  sendJson,
  startLoopbackServer,
} from './support/loopbackServer.js'

/**
 * Each resource id names the statuses it goes through, one per read, and
 * stays at the last: `/tasks/pending,running` reads pending, then running.
 */
const reads = new Map<string, number>()
function next(id: string): string {
  const steps = id.split(',')
  const n = reads.get(id) ?? 0
  reads.set(id, n + 1)
  return steps[Math.min(n, steps.length - 1)] ?? ''
}

const signer: WalletSigner = {
  address: '0x000000000000000000000000000000000000dEaD',
  signMessage: async () => '0xsig',
  signTypedData: async () => '0xsig',
}

const fast = { intervalMs: 5, timeoutMs: 2_000 }

/** Runs `p`, which must reject, and returns what it threw. */
async function thrown(p: Promise<unknown>): Promise<unknown> {
  try {
    await p
  } catch (err) {
    return err
  }
  throw new Error('expected a rejection')
}

describe('client waits', () => {
  let server: LoopbackServer
  let dn: ReturnType<typeof createDnClient>
  beforeAll(async () => {
    server = await startLoopbackServer((req, res) => {
      const [, kind, raw = ''] =
        /\/(tasks|orders|venue-bindings)\/([^/?]+)$/.exec(req.url ?? '') ?? []
      const id = decodeURIComponent(raw)
      const status = next(id)
      if (kind === 'tasks') {
        const error = status === 'failed' ? 'venue rejected the long leg' : null
        return sendJson(res, 200, { task: { taskId: id, status, error } })
      }
      if (kind === 'orders')
        return sendJson(res, 200, {
          order: { orderId: id, status, error: null, venueStatus: null },
        })
      if (kind === 'venue-bindings') {
        const expired = id.startsWith('old')
        return sendJson(res, 200, {
          bindingId: id,
          status: expired ? 'awaiting_signatures' : status,
          expiresAt: expired
            ? '2020-01-01T00:00:00.000Z'
            : '2999-01-01T00:00:00.000Z',
          results: [
            { venue: 'hl', sessionId: null, status: 'bound' },
            {
              venue: 'aster',
              sessionId: null,
              status: 'failed',
              code: 'venue_rejected',
            },
          ],
          signRequests: [],
        })
      }
      sendJson(res, 404, { code: 'route_not_found', error: 'no' })
    })
    dn = createDnClient({ baseUrl: server.url, retryCount: 0 })
  })
  afterAll(() => server?.close())

  test('default: waitFor stops at running; a task that ended instead throws (issue 32)', async () => {
    const polled: string[] = []
    const t = await dn.waitForTask('pending,pending,running', {
      ...fast,
      // the task read, beside its status (a pending one says why it waits)
      onPoll: (s, task) => polled.push(`${s}:${task.status}`),
    })
    expect(t.status).toBe('running')
    expect(polled).toEqual([
      'pending:pending',
      'pending:pending',
      'running:running',
    ])
    // failed, or closed before it was ever seen running: not what the
    // caller waited for
    for (const ended of ['a,failed', 'a,closed', 'a,cancelled']) {
      const err = await thrown(dn.tasks.waitFor(ended, fast))
      expect(err, ended).toBeInstanceOf(DnWaitError)
      expect((err as Error).message, ended).toMatch(
        /while waiting for running$/,
      )
    }
  })

  test('default: until takes one status or several', async () => {
    const t = await dn.tasks.waitFor('b,running,closing,closed', {
      ...fast,
      until: 'closed',
    })
    expect(t.status).toBe('closed')
    const o = await dn.orders.waitFor('pending,open,filled', {
      ...fast,
      until: ['filled', 'cancelled'],
    })
    expect(o.status).toBe('filled')
  })

  test('error: a task that ends otherwise throws DnWaitError at once', async () => {
    const err = await thrown(
      dn.tasks.waitFor('pending,failed', { ...fast, until: 'running' }),
    )
    expect(err).toBeInstanceOf(DnWaitError)
    expect(err).toBeInstanceOf(DnError)
    const e = err as DnWaitError<Task>
    expect(e.message).toBe(
      'task pending,failed ended failed (error: venue rejected the long leg) while waiting for running',
    )
    expect({ code: e.code, status: e.status }).toEqual({
      code: 'wait_ended',
      status: 'failed',
    })
    expect(e.resource.taskId).toBe('pending,failed')
    // it stopped at the final read, it did not poll on
    expect(reads.get('pending,failed')).toBe(2)
  })

  test('error: an order that ends otherwise throws DnWaitError', async () => {
    const err = (await thrown(
      dn.orders.waitFor('submitting,open,cancelled', {
        ...fast,
        until: 'filled',
      }),
    )) as DnWaitError<PerpOrder>
    expect(err).toBeInstanceOf(DnWaitError)
    expect(err.status).toBe('cancelled')
    expect(err.message).toBe(
      'order submitting,open,cancelled ended cancelled while waiting for filled',
    )
  })

  test('behavior: unknown does not end an order wait (the worker reconciles it)', async () => {
    const o = await dn.orders.waitFor('submitting,unknown,unknown,filled', {
      ...fast,
      until: 'filled',
    })
    expect(o.status).toBe('filled')
    // the default still returns at unknown, as before
    expect((await dn.waitForOrder('c,unknown', fast)).status).toBe('unknown')
  })

  test('error: a resource that never gets there is a DnTimeoutError', async () => {
    const err = await thrown(
      dn.tasks.waitFor('pending', { intervalMs: 5, timeoutMs: 30 }),
    )
    expect(err).toBeInstanceOf(DnTimeoutError)
    expect((err as DnTimeoutError).message).toMatch(
      /^task pending still pending after 30 ms waiting for running$/,
    )
  })

  test('behavior: an abort signal stops the wait between polls', async () => {
    const controller = new AbortController()
    const wait = dn.orders.waitFor('d,pending', {
      intervalMs: 60_000,
      signal: controller.signal,
    })
    setTimeout(() => controller.abort(new Error('operator stopped')), 20)
    const err = await thrown(wait)
    expect((err as Error).message).toBe('operator stopped')
  })

  test('default: waitForBinding resolves on the awaited batch status', async () => {
    const b = await dn.waitForBinding(signer, 'processing,bound', fast)
    expect(b.status).toBe('bound')
  })

  test('error: waitForBinding stops on a settled batch it did not wait for', async () => {
    const err = (await thrown(
      dn.waitForBinding(signer, 'processing,partial_success', {
        ...fast,
        until: 'bound',
      }),
    )) as DnWaitError<VenueBindingBatch>
    expect(err).toBeInstanceOf(DnWaitError)
    expect(err.message).toBe(
      'binding processing,partial_success ended partial_success (aster: failed venue_rejected) while waiting for bound',
    )
  })

  test('error: waitForBinding stops on a batch expired before it was signed', async () => {
    const err = (await thrown(
      dn.waitForBinding(signer, 'old', { ...fast, until: 'bound' }),
    )) as DnWaitError
    expect(err.status).toBe('awaiting_signatures')
    expect(err.message).toContain('expired at 2020-01-01T00:00:00.000Z')
  })

  test('types: until is the resource status union, and narrows the result', async () => {
    const t = await dn.tasks.waitFor('e,running', { ...fast, until: 'running' })
    const running: 'running' = t.status
    expect(running).toBe('running')
    const quick = { timeoutMs: 0, intervalMs: 1 }
    await thrown(
      // @ts-expect-error not a task status
      dn.tasks.waitFor('x', { until: 'runing', ...quick }),
    )
    await thrown(
      // @ts-expect-error an order status is not a task status
      dn.waitForTask('y', { until: ['filled'], ...quick }),
    )
  })
})
