import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allTargets,
  type BindingBed,
  type CallResult,
  PREPARE,
  prepareBody,
  prepared,
  read,
  requestIds,
  signAll,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { call, dialects } from './support/testService.js'
import { newWallet } from './support/wallet.js'

/**
 * A 202 from submit means "signatures durably accepted" (contract): once
 * answered, an accepted request is never offered again as outstanding.
 */
function expectAccepted(res: CallResult, sent: string[], batch: unknown) {
  expect(res.status, res.text).toBe(202)
  for (const id of sent) expect(requestIds(batch), id).not.toContain(id)
}

describe.each(dialects())('binding under concurrency (%s)', (dialect) => {
  let bed: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect, slowBatchStoreMs: 50 })
  })
  afterAll(() => bed?.close())

  it('concurrent identical prepares answer one batch', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const body = await prepareBody(bed, wallet, allTargets(bed, owner))
    const answers = await Promise.all(
      [0, 1, 2].map(() => call(bed.svc, 'POST', PREPARE, { body, idem: null })),
    )
    for (const a of answers) expect(a.status, a.text).toBe(200)
    const ids = new Set(answers.map((a) => a.body.bindingId))
    expect(ids.size).toBe(1)
    expect(
      await bed.svc.store.bindingBatches.countCreatedSince(
        owner,
        new Date(bed.clock.now() - 60_000).toISOString(),
      ),
    ).toBe(1)
  })

  it('two concurrent submits for one venue: every 202 keeps its signatures', async () => {
    const wallet = newWallet()
    bed.venues.faucet('hl', wallet.address.toLowerCase())
    const batch = await prepared(bed, wallet, [{ venue: 'hl' }])
    const sigs = await signAll(wallet, batch.signRequests)
    const answers = await Promise.all(
      sigs.map((s) =>
        submit(bed, batch.bindingId, [s]).then((r) => ({
          res: r,
          sent: [s.requestId],
        })),
      ),
    )
    const now = (await read(bed, wallet, batch.bindingId)).body
    for (const { res, sent } of answers) {
      if (res.status === 409) expect(res.body.code).toBe('binding_busy')
      else expectAccepted(res, sent, now)
    }
    if (answers.every((a) => a.res.status === 202)) {
      expect(statuses(now)).toEqual({ hl: 'queued' })
    }
  })

  it('one Idempotency-Key sent concurrently with two bodies: one 202, one 409', async () => {
    const wallet = newWallet()
    bed.venues.faucet('hl', wallet.address.toLowerCase())
    const batch = await prepared(bed, wallet, [{ venue: 'hl' }])
    const sigs = await signAll(wallet, batch.signRequests)
    const key = randomUUID()
    const answers = await Promise.all(
      sigs.map((s) => submit(bed, batch.bindingId, [s], key)),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409])
    const conflict = answers.find((a) => a.status === 409)
    expect(conflict?.body).toEqual({
      code: 'idempotency_key_reused',
      error: expect.any(String),
    })
  })

  it('signatures accepted while the worker completes another venue are kept', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const [hl, , lighter] = allTargets(bed, owner)
    const batch = await prepared(bed, wallet, [hl, lighter])
    const sigs = await signAll(wallet, batch.signRequests)
    const of = (venue: string) =>
      sigs.filter((s) => s.requestId.startsWith(`${venue}:`))
    expect((await submit(bed, batch.bindingId, of('lighter'))).status).toBe(202)
    // the worker claims the batch and waits on the (slow) Lighter venue
    bed.venues.exchanges.lighter.setFaults({ latencyMs: 400 })
    let draining: Promise<number> | undefined
    try {
      draining = bed.drain()
      await new Promise((r) => setTimeout(r, 150))
      const hlRes = await submit(bed, batch.bindingId, of('hl'))
      expect(hlRes.status, hlRes.text).toBe(202)
      expect(statuses(hlRes.body)).toEqual({ hl: 'queued', lighter: 'queued' })
      await draining
    } finally {
      await draining
      bed.venues.exchanges.lighter.setFaults({})
    }
    const mid = (await read(bed, wallet, batch.bindingId)).body
    expect(requestIds(mid)).toEqual([])
    await bed.drain()
    const done = (await read(bed, wallet, batch.bindingId)).body
    expect(statuses(done)).toEqual({ hl: 'bound', lighter: 'bound' })
    expect(done.status).toBe('bound')
  })
})
