import {
  runWorkerRound,
  type VenueAdapter,
  type VenueCredential,
  type VenueId,
  type WorkerDeps,
} from '@dn/core'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type BindingBed,
  expectBindingError,
  prepare,
  prepared,
  signAll,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { ORDERS, TASKS } from './support/httpFixtures.js'
import { call, createOwnerWithKey, dialects } from './support/testService.js'
import { newWallet } from './support/wallet.js'

const READ_HL =
  'credential_unreadable: the stored hl credential could not be read; rebind hl (POST /v1/venue-bindings/prepare with rebind: true)'
const MARKED = 'venue credential unreadable; binding marked unusable'
/** what the worker logs when it retries an item or skips a task */
const RETRY_LOGS = [
  'work item failed; it is retried when its lease expires',
  'monitor sweep skipped a task',
  'monitor sweep failed',
]
const VENUE_CALLS = ['place', 'order', 'cancel', 'positions', 'funding']

interface Owner {
  readonly wallet: PrivateKeyAccount
  readonly owner: string
  readonly apiKey: string
}

describe.each(dialects())('unreadable venue credentials (%s)', (dialect) => {
  let bed: BindingBed
  let worker: WorkerDeps
  const logs: { msg: string; fields: Record<string, unknown> }[] = []
  /** venue calls per `venue|owner|method` */
  const calls = new Map<string, number>()
  const owners: Owner[] = []

  const round = () => runWorkerRound(worker)
  async function drain(max = 40) {
    for (let i = 0; i < max; i++) if ((await round()) === 0) return
  }
  const advance = async (ms: number) => {
    bed.clock.advance(ms)
    await drain()
  }
  const callsOf = (venue: VenueId, owner: string) =>
    VENUE_CALLS.reduce(
      (n, m) => n + (calls.get(`${venue}|${owner}|${m}`) ?? 0),
      0,
    )

  /** Binds hl and aster through prepare → sign → submit → worker. */
  async function bindOwner(): Promise<Owner> {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    bed.venues.faucet('hl', owner)
    bed.venues.faucet('aster', owner)
    const batch = await prepared(bed, wallet, [
      { venue: 'hl' },
      { venue: 'aster' },
    ])
    await submit(
      bed,
      batch.bindingId,
      await signAll(wallet, batch.signRequests),
    )
    await drain()
    expect((await bed.svc.store.bindings.get(owner, 'hl'))?.status).toBe(
      'bound',
    )
    const { apiKey } = await createOwnerWithKey(bed.svc, {
      wallet,
      bound: [],
      venues: ['hl', 'aster'],
    })
    return { wallet, owner, apiKey }
  }

  /** Flips one bit of the stored ciphertext, as a tampered row would. */
  async function tamper(owner: string, venue: VenueId) {
    const row = await bed.svc.store.bindings.get(owner, venue)
    const [v, iv, tag, ct] = (row?.credentialCiphertext ?? '').split('.')
    const bytes = Buffer.from(ct ?? '', 'base64url')
    bytes[0] = (bytes[0] ?? 0) ^ 1
    await bed.svc.store.bindings.upsert({
      ...(row as NonNullable<typeof row>),
      credentialCiphertext: [v, iv, tag, bytes.toString('base64url')].join('.'),
    })
  }

  const place = async (o: Owner, body: Record<string, unknown>) => {
    const res = await call(bed.svc, 'POST', ORDERS, { key: o.apiKey, body })
    expect(res.status, res.text).toBe(202)
    return res.body.orderId as string
  }
  const order = async (o: Owner, id: string) =>
    (await call(bed.svc, 'GET', `${ORDERS}/${id}`, { key: o.apiKey })).body
      .order
  const createTask = async (o: Owner) => {
    const res = await call(bed.svc, 'POST', TASKS, {
      key: o.apiKey,
      body: {
        longVenue: 'hl',
        longMarket: 'BTC',
        shortVenue: 'aster',
        shortMarket: 'BTCUSDT',
        sizeUsd: 2_000,
        // opens whatever the funding: entry rules are not under test
        autoClose: false,
      },
    })
    expect(res.status, res.text).toBe(202)
    return res.body.taskId as string
  }
  const task = async (o: Owner, id: string) =>
    (await call(bed.svc, 'GET', `${TASKS}/${id}`, { key: o.apiKey })).body.task
  const marked = (owner: string) =>
    logs.filter((l) => l.msg === MARKED && l.fields.owner === owner)
  const hlMarket = { venue: 'hl', market: 'BTC', orderType: 'market' }

  beforeAll(async () => {
    bed = await startBindingBed({ dialect })
    worker = {
      ...bed.worker,
      logger: {
        info: () => {},
        error: (msg, fields = {}) => logs.push({ msg, fields }),
      },
    }
    for (const venue of ['hl', 'aster'] as const) {
      const a = bed.venues.adapters[venue] as unknown as Record<
        string,
        (cred: VenueCredential, ...rest: unknown[]) => Promise<unknown>
      >
      for (const m of VENUE_CALLS) {
        const original = (a[m] as NonNullable<(typeof a)[string]>).bind(a)
        a[m] = (cred, ...rest) => {
          const key = `${venue}|${cred.owner}|${m}`
          calls.set(key, (calls.get(key) ?? 0) + 1)
          return original(cred, ...rest)
        }
      }
      expect((bed.venues.adapters[venue] as VenueAdapter).venue).toBe(venue)
    }
    // keys are signed at the real time: made before the bed clock moves
    for (let i = 0; i < 3; i++) owners.push(await bindOwner())
  })
  afterAll(() => bed?.close())

  test('orders: queued hl orders end rejected with credential_unreadable and a rebind message; logged once; new ones are refused', async () => {
    const o = owners[0] as Owner
    const hl = [
      await place(o, { ...hlMarket, side: 'long', sizeBase: 0.001 }),
      await place(o, { ...hlMarket, side: 'short', sizeBase: 0.002 }),
    ]
    const aster = await place(o, {
      venue: 'aster',
      market: 'BTCUSDT',
      orderType: 'market',
      side: 'long',
      sizeBase: 0.002,
    })
    await tamper(o.owner, 'hl')
    const stored = (await bed.svc.store.bindings.get(o.owner, 'hl'))
      ?.credentialCiphertext as string

    // a round per order of the account market (a claim takes one of
    // them): every queued order is decided, none is left to retry
    await round()
    await round()
    for (const id of hl) {
      expect(await order(o, id)).toMatchObject({
        status: 'rejected',
        error: READ_HL,
        submittedAt: null,
        venueStatus: null,
      })
    }
    expect((await order(o, aster)).status).toBe('filled')
    expect(callsOf('hl', o.owner)).toBe(0)
    expect(await bed.svc.store.bindings.get(o.owner, 'hl')).toMatchObject({
      status: 'unusable',
      unusableCode: 'credential_unreadable',
    })
    const bindingId = (await bed.svc.store.bindings.get(o.owner, 'hl'))?.id
    expect(marked(o.owner)).toEqual([
      {
        msg: MARKED,
        fields: {
          code: 'credential_unreadable',
          owner: o.owner,
          venue: 'hl',
          bindingId,
          reason: expect.any(String),
        },
      },
    ])
    expect(JSON.stringify(logs)).not.toContain(stored.split('.')[3])

    // the API now refuses hl work up front, saying why
    const refused = await call(bed.svc, 'POST', ORDERS, {
      key: o.apiKey,
      body: { ...hlMarket, side: 'long', sizeBase: 0.001 },
    })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({
      code: 'venue_not_bound',
      issues: [
        {
          venue: 'hl',
          code: 'credential_unreadable',
          message: expect.stringContaining('rebind: true'),
        },
      ],
    })
    await advance(31_000)
    expect(callsOf('hl', o.owner)).toBe(0)
    expect(marked(o.owner)).toHaveLength(1)
  })

  test('tasks: a pending one fails in its first claim; a running one closes its aster leg and fails naming the hl leg; neither is retried', async () => {
    const o = owners[1] as Owner
    const running = await createTask(o)
    await drain()
    const opened = await task(o, running)
    expect(opened.status).toBe('running')
    await tamper(o.owner, 'hl')
    const pending = await createTask(o)

    await round()
    expect(await task(o, pending)).toMatchObject({
      status: 'failed',
      error: READ_HL,
      longSize: null,
      shortSize: null,
    })
    // the sweep reuses an account's credential for up to 30 s; once it
    // reads the binding again it hands the task to a claim
    bed.clock.advance(31_000)
    await round()
    await round()
    const failed = await task(o, running)
    expect(failed).toMatchObject({
      status: 'failed',
      closeReason: 'credential_unreadable',
      longSize: opened.longSize,
      shortSize: '0',
      error: `${READ_HL}; the long leg (${opened.longSize} BTC on hl) is still open at the venue and no longer managed by this task; the short leg on aster was closed`,
    })
    const cred = (venue: VenueId): VenueCredential => ({
      owner: o.owner,
      venue,
      accountIndex: null,
      credentialRef: null,
      secret: null,
    })
    const held = async (venue: VenueId) =>
      (await bed.venues.adapters[venue].positions(cred(venue))).filter(
        (p) => Number(p.size) !== 0,
      )
    expect(await held('aster')).toEqual([])
    expect((await held('hl')).map((p) => p.size)).toEqual([opened.longSize])

    // nothing of this owner is retried: no venue call, no write, no log
    const before = {
      hl: callsOf('hl', o.owner),
      aster: callsOf('aster', o.owner),
      running: (await task(o, running)).updatedAt,
      pending: (await task(o, pending)).updatedAt,
    }
    for (const ms of [31_000, 60_000, 3_600_000]) await advance(ms)
    expect({
      hl: callsOf('hl', o.owner),
      aster: callsOf('aster', o.owner),
      running: (await task(o, running)).updatedAt,
      pending: (await task(o, pending)).updatedAt,
    }).toEqual(before)
    expect(marked(o.owner)).toHaveLength(1)
    expect(logs.filter((l) => RETRY_LOGS.includes(l.msg))).toEqual([])
  })

  test('rebind repairs it: required, not blocked by the failed task, rejected orders or an order waiting on hl; then hl trades again', async () => {
    const o = owners[2] as Owner
    const mark = Number((await bed.venues.marketData.quote('hl', 'BTC')).mark)
    const resting = await place(o, {
      venue: 'hl',
      market: 'BTC',
      orderType: 'limit',
      timeInForce: 'gtc',
      side: 'long',
      sizeBase: 0.001,
      limitPrice: Math.floor((mark * 0.8) / 100) * 100,
    })
    await drain()
    expect((await order(o, resting)).status).toBe('open')
    await tamper(o.owner, 'hl')
    const rejected = await place(o, {
      ...hlMarket,
      side: 'long',
      sizeBase: 0.001,
    })
    const failedTask = await createTask(o)
    const hlCalls = callsOf('hl', o.owner)
    await advance(2_000)
    expect((await order(o, rejected)).status).toBe('rejected')
    expect((await task(o, failedTask)).status).toBe('failed')
    // the order at the venue waits for the rebind, saying why
    expect(await order(o, resting)).toMatchObject({
      status: 'open',
      error: READ_HL,
    })
    await advance(30_000)
    expect(callsOf('hl', o.owner)).toBe(hlCalls)

    expectBindingError(
      await prepare(bed, o.wallet, [{ venue: 'hl' }]),
      409,
      'rebind_required',
    )
    const again = await prepared(bed, o.wallet, [{ venue: 'hl', rebind: true }])
    expect(statuses(again)).toEqual({ hl: 'awaiting_signatures' })
    const sent = await submit(
      bed,
      again.bindingId,
      await signAll(o.wallet, again.signRequests),
    )
    expect(sent.status, sent.text).toBe(202)
    await drain()
    expect(await bed.svc.store.bindings.get(o.owner, 'hl')).toMatchObject({
      status: 'bound',
      unusableCode: null,
    })

    // the waiting order is followed again, then cancelled at the venue
    await advance(61_000)
    expect(await order(o, resting)).toMatchObject({
      status: 'open',
      error: null,
    })
    const cancel = await call(bed.svc, 'POST', `${ORDERS}/${resting}/cancel`, {
      key: o.apiKey,
      body: {},
    })
    expect(cancel.status, cancel.text).toBe(202)
    await drain()
    expect((await order(o, resting)).status).toBe('cancelled')

    const filled = await place(o, {
      ...hlMarket,
      side: 'long',
      sizeBase: 0.001,
    })
    await drain()
    expect(await order(o, filled)).toMatchObject({
      status: 'filled',
      error: null,
    })
    const paired = await createTask(o)
    await drain()
    expect((await task(o, paired)).status).toBe('running')
    const close = await call(bed.svc, 'POST', `${TASKS}/${paired}/close`, {
      key: o.apiKey,
      body: {},
    })
    expect(close.status, close.text).toBe(202)
    await drain()
    expect(await task(o, paired)).toMatchObject({
      status: 'closed',
      error: null,
    })
    expect(marked(o.owner)).toHaveLength(1)
    expect(logs.filter((l) => RETRY_LOGS.includes(l.msg))).toEqual([])
  })
})
