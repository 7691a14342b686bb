import { randomUUID } from 'node:crypto'
import type { PrivateKeyAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type BindingBed,
  expectBindingError,
  prepared,
  read,
  readHeaders,
  requestIds,
  signAll,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { call, dialects } from './support/testService.js'
import { newWallet } from './support/wallet.js'

const ZERO_SIG = `0x${'0'.repeat(130)}`

describe.each(dialects())('binding submit and read errors (%s)', (dialect) => {
  let bed: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect })
  })
  afterAll(() => bed?.close())

  /** An hl batch (approveAgent + approveBuilderFee) and its signatures. */
  const hlBatch = async (wallet: PrivateKeyAccount = newWallet()) => {
    bed.venues.faucet('hl', wallet.address.toLowerCase())
    const batch = await prepared(bed, wallet, [{ venue: 'hl' }])
    const sigs = await signAll(wallet, batch.signRequests)
    const sig = (id: string) => {
      const s = sigs.find((x) => x.requestId === id)
      if (!s) throw new Error(`no ${id}`)
      return s
    }
    return { wallet, batch, id: batch.bindingId as string, sigs, sig }
  }
  const unchanged = async (wallet: PrivateKeyAccount, id: string) => {
    const got = await read(bed, wallet, id)
    expect(got.status, got.text).toBe(200)
    expect(statuses(got.body)).toEqual({ hl: 'awaiting_signatures' })
    expect(requestIds(got.body)).toEqual([
      'hl:approveAgent',
      'hl:approveBuilderFee',
    ])
  }

  it('submit 400: bad bodies, path id and Idempotency-Key', async () => {
    const { wallet, id, sigs } = await hlBatch()
    const path = `/v1/venue-bindings/${id}/submit`
    const bodies: unknown[] = [
      {},
      { signatures: [] },
      { signatures: Array(9).fill(sigs[0]) },
      { signatures: sigs, extra: true },
      { signatures: [{ ...sigs[0], extra: 1 }] },
      { signatures: [{ requestId: 'hl:approveAgent' }] },
      { signatures: [{ requestId: 'hl:approveAgent', signature: '0x12' }] },
      [],
    ]
    for (const body of bodies) {
      const res = await call(bed.svc, 'POST', path, { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expectBindingError(res, 400, 'invalid_request')
    }
    expectBindingError(
      await call(bed.svc, 'POST', path, { rawBody: '{"signatures":' }),
      400,
      'invalid_json',
    )
    expectBindingError(
      await submit(bed, id, sigs, null),
      400,
      'idempotency_key_required',
    )
    expectBindingError(
      await submit(bed, id, sigs, 'has space'),
      400,
      'invalid_idempotency_key',
    )
    expectBindingError(
      await submit(bed, id.toUpperCase(), sigs),
      400,
      'invalid_path_id',
    )
    await unchanged(wallet, id)
  })

  it('submit 413 and 415', async () => {
    const { wallet, id, sigs } = await hlBatch()
    const path = `/v1/venue-bindings/${id}/submit`
    const big = await call(bed.svc, 'POST', path, {
      rawBody: JSON.stringify({ signatures: sigs, pad: 'x'.repeat(16_400) }),
    })
    expectBindingError(big, 413, 'payload_too_large')
    const plain = await call(bed.svc, 'POST', path, {
      rawBody: JSON.stringify({ signatures: sigs }),
      headers: { 'content-type': 'text/plain' },
    })
    expectBindingError(plain, 415, 'unsupported_media_type')
    await unchanged(wallet, id)
  })

  it('submit 403 signature_mismatch for signatures of another wallet', async () => {
    const { wallet, batch, id } = await hlBatch()
    const res = await submit(
      bed,
      id,
      await signAll(newWallet(), batch.signRequests),
    )
    expectBindingError(res, 403, 'signature_mismatch')
    const zero = await submit(bed, id, [
      { requestId: 'hl:approveAgent', signature: ZERO_SIG },
    ])
    expectBindingError(zero, 403, 'signature_mismatch')
    await unchanged(wallet, id)
  })

  it('submit 404 for an unknown binding', async () => {
    const { sigs } = await hlBatch()
    expectBindingError(
      await submit(bed, randomUUID(), sigs),
      404,
      'binding_not_found',
    )
  })

  it('submit 409: unknown and duplicate request ids, replaced signatures', async () => {
    const { wallet, batch, id, sig } = await hlBatch()
    const other = await signAll(newWallet(), batch.signRequests)
    expectBindingError(
      await submit(bed, id, [
        {
          requestId: 'aster:approveAgent',
          signature: sig('hl:approveAgent').signature,
        },
      ]),
      409,
      'unknown_request_id',
    )
    expectBindingError(
      await submit(bed, id, [
        { requestId: 'hl:changePubKey', signature: ZERO_SIG },
      ]),
      409,
      'unknown_request_id',
    )
    expectBindingError(
      await submit(bed, id, [sig('hl:approveAgent'), sig('hl:approveAgent')]),
      409,
      'duplicate_request_id',
    )
    await unchanged(wallet, id)

    const ok = await submit(bed, id, [sig('hl:approveAgent')])
    expect(ok.status, ok.text).toBe(202)
    const replace = await submit(bed, id, [
      other.find((s) => s.requestId === 'hl:approveAgent'),
      sig('hl:approveBuilderFee'),
    ])
    expectBindingError(replace, 409, 'signature_already_accepted')
    const got = await read(bed, wallet, id)
    expect(statuses(got.body)).toEqual({ hl: 'awaiting_signatures' })
    expect(requestIds(got.body)).toEqual(['hl:approveBuilderFee'])
  })

  it('submit 409: an accepted signature sent again under a new Idempotency-Key is a duplicate; under its own key it replays', async () => {
    const { wallet, id, sig } = await hlBatch()
    const key = randomUUID()
    const first = await submit(bed, id, [sig('hl:approveAgent')], key)
    expect(first.status, first.text).toBe(202)
    // the very same signature, a new key: rejected, nothing changes
    const again = await submit(bed, id, [sig('hl:approveAgent')])
    expectBindingError(again, 409, 'signature_already_accepted')
    expect(again.body.error).toMatch(/Idempotency-Key/)
    // with another request's new signature: rejected as a whole
    expectBindingError(
      await submit(bed, id, [
        sig('hl:approveAgent'),
        sig('hl:approveBuilderFee'),
      ]),
      409,
      'signature_already_accepted',
    )
    const got = await read(bed, wallet, id)
    expect(statuses(got.body)).toEqual({ hl: 'awaiting_signatures' })
    expect(requestIds(got.body)).toEqual(['hl:approveBuilderFee'])
    // under its own key: the replay of the accepted submission
    const replay = await submit(bed, id, [sig('hl:approveAgent')], key)
    expect(replay.status, replay.text).toBe(202)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
  })

  it('submit: the same request sent twice at once with one key is accepted once and replayed once', async () => {
    const { id, sig } = await hlBatch()
    const key = randomUUID()
    const both = await Promise.all(
      [0, 1].map(() => submit(bed, id, [sig('hl:approveAgent')], key)),
    )
    expect(both.map((r) => r.status)).toEqual([202, 202])
    expect(
      both.map((r) => r.headers.get('idempotent-replayed')).sort(),
    ).toEqual(['true', null].sort())
  })

  it('submit 409 idempotency_key_reused; a replay answers the current state', async () => {
    const { wallet, id, sig } = await hlBatch()
    const key = randomUUID()
    const first = await submit(bed, id, [sig('hl:approveAgent')], key)
    expect(first.status, first.text).toBe(202)
    expectBindingError(
      await submit(bed, id, [sig('hl:approveBuilderFee')], key),
      409,
      'idempotency_key_reused',
    )
    const rest = await submit(bed, id, [sig('hl:approveBuilderFee')])
    expect(rest.status, rest.text).toBe(202)
    expect(rest.body.status).toBe('processing')
    await bed.drain()

    const replay = await submit(bed, id, [sig('hl:approveAgent')], key)
    expect(replay.status, replay.text).toBe(202)
    expect(replay.body.status).toBe('bound')
    expect(statuses(replay.body)).toEqual({ hl: 'bound' })
    expect(replay.body).toEqual((await read(bed, wallet, id)).body)
  })

  it('the Idempotency-Key is scoped to the binding', async () => {
    const a = await hlBatch()
    const b = await hlBatch()
    const key = randomUUID()
    expect((await submit(bed, a.id, a.sigs, key)).status).toBe(202)
    const res = await submit(bed, b.id, b.sigs, key)
    expect(res.status, res.text).toBe(202)
    expect(res.body.bindingId).toBe(b.id)
    expect(statuses(res.body)).toEqual({ hl: 'queued' })
  })

  it('read 400 for missing or malformed wallet headers', async () => {
    const { wallet, id } = await hlBatch()
    const good = await readHeaders(bed, wallet, id)
    const path = `/v1/venue-bindings/${id}`
    const variants: Record<string, string>[] = [{}]
    for (const name of Object.keys(good)) {
      const { [name]: _gone, ...rest } = good
      variants.push(rest)
    }
    variants.push({ ...good, 'x-wallet-expires-at': '12.5' })
    variants.push({ ...good, 'x-wallet-address': '0x1234' })
    variants.push({ ...good, 'x-wallet-signature': '0xabc' })
    for (const headers of variants) {
      const res = await call(bed.svc, 'GET', path, { headers })
      expectBindingError(res, 400, 'invalid_wallet_headers')
    }
    expectBindingError(
      await call(bed.svc, 'GET', `/v1/venue-bindings/not-a-uuid`, {
        headers: good,
      }),
      400,
      'invalid_path_id',
    )
  })

  it('read 401 for expired, too long or wrong-signer authorizations', async () => {
    const { wallet, id } = await hlBatch()
    const now = bed.nowSec()
    for (const [o, code] of [
      [{ expiresAt: now - 1 }, 'authorization_expired'],
      [{ expiresAt: now }, 'authorization_expired'],
      [{ expiresAt: now + 301 }, 'authorization_expiry_too_far'],
      [{ signer: newWallet() }, 'invalid_signature'],
    ] as const) {
      expectBindingError(await read(bed, wallet, id, o), 401, code)
    }
    expect((await read(bed, wallet, id, { expiresAt: now + 300 })).status).toBe(
      200,
    )
  })

  it('read 404 for another wallet and for an unknown binding', async () => {
    const { id } = await hlBatch()
    const other = newWallet()
    const theirs = await read(bed, other, id)
    expectBindingError(theirs, 404, 'binding_not_found')
    const unknown = await read(bed, other, randomUUID())
    expectBindingError(unknown, 404, 'binding_not_found')
    expect(theirs.body).toEqual({ ...unknown.body, error: theirs.body.error })
  })

  it('a read signature is reusable for its binding only', async () => {
    const wallet = newWallet()
    const one = await hlBatch(wallet)
    const two = await hlBatch(wallet)
    const headers = await readHeaders(bed, wallet, one.id)
    for (let i = 0; i < 2; i++) {
      const res = await call(bed.svc, 'GET', `/v1/venue-bindings/${one.id}`, {
        headers,
      })
      expect(res.status, res.text).toBe(200)
      expect(res.body.bindingId).toBe(one.id)
    }
    const reused = await call(bed.svc, 'GET', `/v1/venue-bindings/${two.id}`, {
      headers,
    })
    expectBindingError(reused, 401, 'invalid_signature')
  })

  it('405 for a wrong method on the submit and read routes', async () => {
    const id = randomUUID()
    for (const [method, path, allow] of [
      ['GET', `/v1/venue-bindings/${id}/submit`, 'POST'],
      ['PUT', `/v1/venue-bindings/${id}/submit`, 'POST'],
      ['DELETE', `/v1/venue-bindings/${id}/submit`, 'POST'],
      ['POST', `/v1/venue-bindings/${id}`, 'GET'],
      ['DELETE', `/v1/venue-bindings/${id}`, 'GET'],
      ['PATCH', `/v1/venue-bindings/${id}`, 'GET'],
    ] as const) {
      const res = await call(bed.svc, method, path, {
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      })
      expectBindingError(res, 405, 'method_not_allowed')
      expect(res.headers.get('allow')).toBe(allow)
    }
  })

  // moves the bed clock: keep it last
  it('submit 410 binding_expired once the session is over; read still works', async () => {
    const { wallet, id, sigs } = await hlBatch()
    bed.clock.advance(10 * 60_000)
    expectBindingError(await submit(bed, id, sigs), 410, 'binding_expired')
    const got = await read(bed, wallet, id)
    expect(got.status, got.text).toBe(200)
    expect(got.body.signRequests).toEqual([])
    expect(statuses(got.body)).toEqual({ hl: 'awaiting_signatures' })
    await bed.drain()
    const after = await read(bed, wallet, id)
    expect(after.body.status).toBe('failed')
    expect(statuses(after.body)).toEqual({ hl: 'expired' })
    expectBindingError(await submit(bed, id, sigs), 410, 'binding_expired')
  })
})
