import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allTargets,
  type BindingBed,
  expectBindingError,
  PREPARE,
  prepare,
  prepareBody,
  prepared,
  readHeaders,
  signAll,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { createOrderVia, ORDERS } from './support/httpFixtures.js'
import {
  call,
  createOwnerWithKey,
  dialects,
  startTestService,
} from './support/testService.js'
import { newNonce, newWallet } from './support/wallet.js'

describe.each(dialects())('binding prepare errors (%s)', (dialect) => {
  let bed: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect })
  })
  afterAll(() => bed?.close())

  const noBatch = async (res: { sent: any }) =>
    expect(
      await bed.svc.store.bindingBatches.getByNonce(
        res.sent.owner.toLowerCase(),
        res.sent.authorization.nonce,
      ),
    ).toBeUndefined()

  it('400 for a body the schema refuses, even when correctly signed', async () => {
    const w = newWallet()
    const owner = w.address.toLowerCase()
    const five = [
      { venue: 'hl' },
      { venue: 'aster' },
      { venue: 'lighter', accountIndex: 1 },
      { venue: 'lighter-mainnet', accountIndex: 2 },
      { venue: 'aster', rebind: true },
    ]
    const cases: [string, unknown[], Parameters<typeof prepare>[3]][] = [
      ['no venues', [], {}],
      ['more than 4 venues', five, {}],
      ['duplicate venues', [{ venue: 'aster' }, { venue: 'aster' }], {}],
      ['unknown venue', [{ venue: 'dydx' }], {}],
      ['unknown target field', [{ venue: 'hl', accountIndex: 3 }], {}],
      ['lighter without accountIndex', [{ venue: 'lighter' }], {}],
      ['negative accountIndex', [{ venue: 'lighter', accountIndex: -1 }], {}],
      ['signatureChainId 0', [{ venue: 'hl', signatureChainId: 0 }], {}],
      ['nonce too short', [{ venue: 'aster' }], { nonce: 'short_nonce' }],
      [
        'nonce with a dot',
        [{ venue: 'aster' }],
        { nonce: 'abcdefgh.ijklmnop' },
      ],
      ['nonce too long', [{ venue: 'aster' }], { nonce: 'n'.repeat(129) }],
      [
        'unknown body field',
        [{ venue: 'aster' }],
        { mutate: (b) => ({ ...b, label: 'x' }) },
      ],
      [
        'unknown authorization field',
        [{ venue: 'aster' }],
        {
          mutate: (b: any) => ({
            ...b,
            authorization: { ...b.authorization, extra: 1 },
          }),
        },
      ],
      [
        'owner pattern',
        [{ venue: 'aster' }],
        { mutate: (b) => ({ ...b, owner: owner.slice(0, 40) }) },
      ],
      [
        'signature pattern',
        [{ venue: 'aster' }],
        {
          mutate: (b: any) => ({
            ...b,
            authorization: { ...b.authorization, signature: '0x1234' },
          }),
        },
      ],
      [
        'fractional expiresAt',
        [{ venue: 'aster' }],
        {
          mutate: (b: any) => ({
            ...b,
            authorization: { ...b.authorization, expiresAt: 1.5 },
          }),
        },
      ],
      [
        'missing authorization',
        [{ venue: 'aster' }],
        { mutate: ({ authorization: _, ...b }) => b },
      ],
    ]
    for (const [name, venues, o] of cases) {
      const res = await prepare(bed, w, venues, o)
      expect(res.status, name).toBe(400)
      expectBindingError(res, 400, 'invalid_request')
    }
    const json = await call(bed.svc, 'POST', PREPARE, { rawBody: '{"owner":' })
    expectBindingError(json, 400, 'invalid_json')
    expect(
      await bed.svc.store.bindingBatches.countCreatedSince(
        owner,
        '1970-01-01T00:00:00.000000Z',
      ),
    ).toBe(0)
  })

  it('401 for expired, too long, wrong-signer and tampered authorizations; no batch', async () => {
    const w = newWallet()
    const owner = w.address.toLowerCase()
    bed.venues.faucet('hl', owner)
    const now = bed.nowSec()
    const cases: [string, Parameters<typeof prepare>[3], string][] = [
      ['expired', { expiresAt: now - 1 }, 'authorization_expired'],
      ['expires now', { expiresAt: now }, 'authorization_expired'],
      ['> now + 300', { expiresAt: now + 301 }, 'authorization_expiry_too_far'],
      ['wrong signer', { signer: newWallet() }, 'invalid_signature'],
      [
        'tampered venues',
        { signedVenues: [{ venue: 'aster' }] },
        'invalid_signature',
      ],
      [
        'tampered owner',
        { owner: newWallet().address.toLowerCase() },
        'invalid_signature',
      ],
    ]
    for (const [name, o, code] of cases) {
      const res = await prepare(
        bed,
        w,
        [{ venue: 'hl' }, { venue: 'aster' }],
        o,
      )
      expect(res.status, name).toBe(401)
      expectBindingError(res, 401, code)
      await noBatch(res)
    }
    // the boundary: exactly now + 300 is accepted
    const edge = await prepare(bed, w, [{ venue: 'aster' }], {
      expiresAt: now + 300,
    })
    expect(edge.status, edge.text).toBe(200)
  })

  it('the owner may be sent checksummed: the signed payload has it lowercased', async () => {
    const w = newWallet()
    const batch = await prepared(bed, w, [{ venue: 'aster' }], {
      owner: w.address,
    })
    expect(batch.owner).toBe(w.address.toLowerCase())
  })

  it('403 account_not_owned for a Lighter account index of another owner', async () => {
    const a = newWallet()
    const b = newWallet()
    bed.venues.faucet('lighter', a.address.toLowerCase())
    const theirs = bed.venues.faucet('lighter', b.address.toLowerCase())
    const res = await prepare(bed, a, [
      { venue: 'aster' },
      { venue: 'lighter', accountIndex: theirs.accountIndex },
    ])
    expectBindingError(res, 403, 'account_not_owned')
    await noBatch(res)
  })

  it('409 nonce_conflict for the same nonce with changed content', async () => {
    const w = newWallet()
    const nonce = newNonce()
    const first = await prepared(bed, w, [{ venue: 'aster' }], { nonce })
    const later = { nonce, expiresAt: bed.nowSec() + 200 }
    const cases: [unknown[], Parameters<typeof prepare>[3]][] = [
      [[{ venue: 'aster' }], later],
      [[{ venue: 'aster', rebind: true }], { nonce }],
    ]
    for (const [venues, o] of cases) {
      const res = await prepare(bed, w, venues, o)
      expectBindingError(res, 409, 'nonce_conflict')
    }
    const stored = await bed.svc.store.bindingBatches.getByNonce(
      w.address.toLowerCase(),
      nonce,
    )
    expect(stored?.id).toBe(first.bindingId)
  })

  it('409 rebind_required for an unusable binding, rebind_blocked while an order is active', async () => {
    const w = newWallet()
    const owner = w.address.toLowerCase()
    const targets = allTargets(bed, owner).slice(0, 2)
    const first = await prepared(bed, w, targets)
    await submit(bed, first.bindingId, await signAll(w, first.signRequests))
    await bed.drain()
    const row = await bed.svc.store.bindings.get(owner, 'hl')
    expect(row?.status).toBe('bound')
    expect(bed.binders.hl.revoke(owner, row?.credentialRef ?? '')).toBe(true)

    const required = await prepare(bed, w, [{ venue: 'hl' }])
    expectBindingError(required, 409, 'rebind_required')
    await noBatch(required)
    const aster = await prepared(bed, w, [{ venue: 'aster' }])
    expect(statuses(aster)).toEqual({ aster: 'already_bound' })

    const { apiKey } = await createOwnerWithKey(bed.svc, {
      wallet: w,
      bound: [],
      venues: ['hl', 'aster'],
    })
    const orderId = await createOrderVia(bed.svc, apiKey)
    const blocked = await prepare(bed, w, [{ venue: 'hl', rebind: true }])
    expectBindingError(blocked, 409, 'rebind_blocked')
    await noBatch(blocked)

    const cancel = await call(bed.svc, 'POST', `${ORDERS}/${orderId}/cancel`, {
      key: apiKey,
      body: {},
    })
    expect(cancel.status, cancel.text).toBe(202)
    const again = await prepared(bed, w, [{ venue: 'hl', rebind: true }])
    expect(statuses(again)).toEqual({ hl: 'awaiting_signatures' })
    await submit(bed, again.bindingId, await signAll(w, again.signRequests))
    await bed.drain()
    const rebound = await bed.svc.store.bindings.get(owner, 'hl')
    expect(rebound?.status).toBe('bound')
    expect(rebound?.credentialRef).not.toBe(row?.credentialRef)
    expect(
      await bed.binders.hl.isUsable(owner, rebound?.credentialRef ?? ''),
    ).toBe(true)
  })

  it('413 and 415', async () => {
    const big = await call(bed.svc, 'POST', PREPARE, {
      rawBody: JSON.stringify({ pad: 'x'.repeat(16_400) }),
      idem: null,
    })
    expectBindingError(big, 413, 'payload_too_large')
    const w = newWallet()
    const res = await call(bed.svc, 'POST', PREPARE, {
      rawBody: JSON.stringify(await prepareBody(bed, w, [{ venue: 'aster' }])),
      headers: { 'content-type': 'text/plain' },
      idem: null,
    })
    expectBindingError(res, 415, 'unsupported_media_type')
  })

  it('422 venue_account_not_found without a faucet, and no batch', async () => {
    const w = newWallet()
    for (const venues of [
      [{ venue: 'hl' }],
      [{ venue: 'aster' }, { venue: 'lighter', accountIndex: 0 }],
      [{ venue: 'aster' }, { venue: 'lighter-mainnet', accountIndex: 0 }],
    ]) {
      const res = await prepare(bed, w, venues)
      expectBindingError(res, 422, 'venue_account_not_found')
      await noBatch(res)
    }
  })

  it('503 venue_account_check_unavailable during a venue outage, and no batch', async () => {
    const w = newWallet()
    const owner = w.address.toLowerCase()
    const [hl, , lighter] = allTargets(bed, owner)
    for (const [venue, target] of [
      ['hl', hl],
      ['lighter', lighter],
    ] as const) {
      bed.venues.exchanges[venue].setFaults({ outage: true })
      try {
        const res = await prepare(bed, w, [{ venue: 'aster' }, target])
        expectBindingError(res, 503, 'venue_account_check_unavailable')
        await noBatch(res)
      } finally {
        bed.venues.exchanges[venue].setFaults({})
      }
    }
    expect((await prepare(bed, w, [hl])).status).toBe(200)
  })

  it('503 binding_unavailable on all three routes when binding is not configured', async () => {
    const bare = await startTestService({ dialect, clock: bed.clock })
    try {
      const w = newWallet()
      const id = randomUUID()
      const answers = [
        await call(bare, 'POST', PREPARE, {
          body: await prepareBody(bed, w, [{ venue: 'aster' }]),
          idem: null,
        }),
        await call(bare, 'POST', `/v1/venue-bindings/${id}/submit`, {
          body: {
            signatures: [
              {
                requestId: 'hl:approveAgent',
                signature: `0x${'1'.repeat(130)}`,
              },
            ],
          },
        }),
        await call(bare, 'GET', `/v1/venue-bindings/${id}`, {
          headers: await readHeaders(bed, w, id),
        }),
      ]
      for (const res of answers) {
        expectBindingError(res, 503, 'binding_unavailable')
      }
    } finally {
      await bare.close()
    }
  })

  it('405 for a wrong method on the prepare route', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const res = await call(bed.svc, method, PREPARE, {
        body: {},
        idem: null,
      })
      expectBindingError(res, 405, 'method_not_allowed')
      expect(res.headers.get('allow')).toBe('POST')
    }
  })

  it('405 for GET on the prepare path', async () => {
    const res = await call(bed.svc, 'GET', PREPARE)
    expectBindingError(res, 405, 'method_not_allowed')
  })

  // moves the bed clock: keep it last
  it('429 after 20 prepares per owner in 10 minutes; replays still answer', async () => {
    const w = newWallet()
    const owner = w.address.toLowerCase()
    const sent = []
    for (let i = 0; i < 20; i++) {
      const res = await prepare(bed, w, [{ venue: 'aster' }])
      expect(res.status, `prepare ${i + 1}`).toBe(200)
      sent.push(res)
    }
    const over = await prepare(bed, w, [{ venue: 'aster' }])
    expectBindingError(over, 429, 'prepare_rate_limited')
    await noBatch(over)
    const replay = await call(bed.svc, 'POST', PREPARE, {
      body: sent[0]?.sent,
      idem: null,
    })
    expect(replay.status).toBe(200)
    expect(replay.body.bindingId).toBe(sent[0]?.body.bindingId)
    // another owner has its own budget
    expect((await prepare(bed, newWallet(), [{ venue: 'aster' }])).status).toBe(
      200,
    )

    bed.clock.advance(10 * 60_000 + 1)
    expect((await prepare(bed, w, [{ venue: 'aster' }])).status).toBe(200)
    expect(
      await bed.svc.store.bindingBatches.countCreatedSince(
        owner,
        '1970-01-01T00:00:00.000000Z',
      ),
    ).toBe(21)
  })
})
