import { credentialAad, type SignRequest, type VenueId } from '@dn/core'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  allTargets,
  type BindingBed,
  databaseText,
  expectBindingError,
  prepare,
  prepared,
  read,
  requestIds,
  signAll,
  startBindingBed,
  statuses,
  submit,
} from './support/bindingFixtures.js'
import { UUID_RE } from './support/httpFixtures.js'
import { call, dialects } from './support/testService.js'
import { newWallet } from './support/wallet.js'

const ALL: VenueId[] = ['hl', 'aster', 'lighter', 'lighter-mainnet']
const SESSION_MS = 10 * 60_000
const BATCH_KEYS = [
  'bindingId',
  'expiresAt',
  'owner',
  'results',
  'signRequests',
  'status',
]

describe.each(dialects())('venue binding over HTTP (%s)', (dialect) => {
  let bed: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect })
  })
  afterAll(() => bed?.close())

  it('binds all four venues: prepare, sign, submit, worker, read', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const targets = allTargets(bed, owner)
    const res = await prepare(bed, wallet, targets)
    expect(res.status, res.text).toBe(200)
    const batch = res.body
    expect(Object.keys(batch).sort()).toEqual(BATCH_KEYS)
    expect(batch.bindingId).toMatch(UUID_RE)
    expect(batch.owner).toBe(owner)
    expect(batch.status).toBe('awaiting_signatures')
    expect(batch.expiresAt).toBe(
      new Date(bed.clock.now() + SESSION_MS).toISOString(),
    )
    expect(batch.results).toEqual(
      ALL.map((venue) => ({
        venue,
        sessionId: expect.stringMatching(UUID_RE),
        status: 'awaiting_signatures',
      })),
    )
    const sessions = batch.results.map(
      (r: { sessionId: string }) => r.sessionId,
    )
    expect(new Set(sessions).size).toBe(4)
    const methods = Object.fromEntries(
      batch.signRequests.map((r: SignRequest) => [r.requestId, r.method]),
    )
    expect(methods).toEqual({
      'hl:approveAgent': 'eth_signTypedData_v4',
      'hl:approveBuilderFee': 'eth_signTypedData_v4',
      'aster:approveAgent': 'eth_signTypedData_v4',
      'lighter:changePubKey': 'personal_sign',
      'lighter:approveIntegrator': 'personal_sign',
      'lighter-mainnet:changePubKey': 'personal_sign',
      'lighter-mainnet:approveIntegrator': 'personal_sign',
    })
    for (const r of batch.signRequests as SignRequest[]) {
      expect(r.requestId).toBe(`${r.venue}:${r.action}`)
    }

    const sub = await submit(
      bed,
      batch.bindingId,
      await signAll(wallet, batch.signRequests),
    )
    expect(sub.status, sub.text).toBe(202)
    expect(sub.body.status).toBe('processing')
    expect(statuses(sub.body)).toEqual(
      Object.fromEntries(ALL.map((v) => [v, 'queued'])),
    )
    expect(sub.body.signRequests).toEqual([])

    expect(await bed.drain()).toBeGreaterThan(0)
    const got = await read(bed, wallet, batch.bindingId)
    expect(got.status, got.text).toBe(200)
    expect(got.body).toEqual({
      ...batch,
      status: 'bound',
      results: batch.results.map((r: object) => ({ ...r, status: 'bound' })),
      signRequests: [],
    })

    // the venues hold the authorizations, fee approvals included
    for (const venue of ALL) {
      const auths = bed.binders[venue].authorizations(owner)
      expect(auths.map((a) => [a.venue, a.feeApproved])).toEqual([
        [venue, true],
      ])
    }
    // the stored credentials are encrypted, and decrypt to the agent keys
    const secrets: string[] = []
    const ciphertexts: string[] = []
    for (const venue of ALL) {
      const row = await bed.svc.store.bindings.get(owner, venue)
      const auth = bed.binders[venue].authorizations(owner)[0]
      expect(row).toMatchObject({
        status: 'bound',
        credentialRef: auth?.credentialRef,
      })
      const target = targets.find((t) => t.venue === venue)
      expect(row?.accountIndex).toBe(
        target?.accountIndex === undefined ? null : String(target.accountIndex),
      )
      const ct = row?.credentialCiphertext ?? ''
      expect(ct).toMatch(/^v1\./)
      ciphertexts.push(ct)
      const secret = bed.secrets.decrypt(ct, credentialAad(owner, venue))
      if (venue === 'hl' || venue === 'aster') {
        expect(privateKeyToAccount(secret as `0x${string}`).address).toBe(
          row?.credentialRef,
        )
      } else {
        expect(secret).toMatch(/^0x[0-9a-f]{80}$/)
      }
      secrets.push(secret)
    }
    const dump = (await databaseText(bed)).toLowerCase()
    for (const ct of ciphertexts) expect(dump).toContain(ct.toLowerCase())
    for (const secret of secrets) {
      expect(dump).not.toContain(secret.slice(2).toLowerCase())
    }
  })

  it('a bound venue answers already_bound on the next prepare, with nothing to sign', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const targets = allTargets(bed, owner).slice(0, 2)
    const first = await prepared(bed, wallet, targets)
    await submit(
      bed,
      first.bindingId,
      await signAll(wallet, first.signRequests),
    )
    await bed.drain()
    const again = await prepared(bed, wallet, targets)
    expect(again.bindingId).not.toBe(first.bindingId)
    expect(again).toMatchObject({ status: 'bound', signRequests: [] })
    expect(again.results).toEqual([
      { venue: 'hl', sessionId: null, status: 'already_bound' },
      { venue: 'aster', sessionId: null, status: 'already_bound' },
    ])
    // an existing Aster credential needs live verification for already_bound
    bed.venues.exchanges.aster.setFaults({ outage: true })
    try {
      const res = await prepare(bed, wallet, [{ venue: 'aster' }])
      expectBindingError(res, 503, 'venue_account_check_unavailable')
      const nonce = (res.sent.authorization as { nonce: string }).nonce
      expect(
        await bed.svc.store.bindingBatches.getByNonce(owner, nonce),
      ).toBeUndefined()
    } finally {
      bed.venues.exchanges.aster.setFaults({})
    }
  })

  it('a replayed prepare returns the same batch without a second batch or preflight', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const targets = allTargets(bed, owner)
    const first = await prepare(bed, wallet, targets)
    expect(first.status, first.text).toBe(200)
    const since = new Date(bed.clock.now() - 60_000).toISOString()
    bed.venues.exchanges.hl.setFaults({ outage: true })
    try {
      const again = await call(bed.svc, 'POST', '/v1/venue-bindings/prepare', {
        body: first.sent,
        idem: null,
      })
      expect(again.status, again.text).toBe(200)
      expect(again.body).toEqual(first.body)
    } finally {
      bed.venues.exchanges.hl.setFaults({})
    }
    expect(
      await bed.svc.store.bindingBatches.countCreatedSince(owner, since),
    ).toBe(1)
    const stored = await bed.svc.store.bindingBatches.getByNonce(
      owner,
      (first.sent.authorization as { nonce: string }).nonce,
    )
    expect(stored?.id).toBe(first.body.bindingId)
  })

  it('an incomplete subset keeps the venue awaiting; the rest follows under new keys', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const [hl, , lighter] = allTargets(bed, owner)
    const batch = await prepared(bed, wallet, [hl, lighter])
    const sigs = await signAll(wallet, batch.signRequests)
    const pick = (...ids: string[]) =>
      sigs.filter((s) => ids.includes(s.requestId))

    const one = await submit(bed, batch.bindingId, pick('hl:approveAgent'))
    expect(one.status, one.text).toBe(202)
    expect(one.body.status).toBe('awaiting_signatures')
    expect(statuses(one.body)).toEqual({
      hl: 'awaiting_signatures',
      lighter: 'awaiting_signatures',
    })
    expect(requestIds(one.body)).toEqual([
      'hl:approveBuilderFee',
      'lighter:approveIntegrator',
      'lighter:changePubKey',
    ])
    await bed.drain()
    expect(bed.binders.hl.authorizations(owner)).toEqual([])

    const two = await submit(
      bed,
      batch.bindingId,
      pick('lighter:changePubKey', 'lighter:approveIntegrator'),
    )
    expect(two.status, two.text).toBe(202)
    expect(two.body.status).toBe('processing')
    expect(statuses(two.body)).toEqual({
      hl: 'awaiting_signatures',
      lighter: 'queued',
    })
    expect(requestIds(two.body)).toEqual(['hl:approveBuilderFee'])
    await bed.drain()
    const mid = await read(bed, wallet, batch.bindingId)
    expect(mid.body.status).toBe('awaiting_signatures')
    expect(statuses(mid.body)).toEqual({
      hl: 'awaiting_signatures',
      lighter: 'bound',
    })
    expect(requestIds(mid.body)).toEqual(['hl:approveBuilderFee'])

    const three = await submit(
      bed,
      batch.bindingId,
      pick('hl:approveBuilderFee'),
    )
    expect(three.status, three.text).toBe(202)
    expect(statuses(three.body)).toEqual({ hl: 'queued', lighter: 'bound' })
    await bed.drain()
    const done = await read(bed, wallet, batch.bindingId)
    expect(done.body).toMatchObject({ status: 'bound', signRequests: [] })
    expect(statuses(done.body)).toEqual({ hl: 'bound', lighter: 'bound' })
  })

  // moves the bed clock: keep these last
  it('an uncertain venue stays confirming past expiry, then binds', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const [hl] = allTargets(bed, owner)
    const batch = await prepared(bed, wallet, [hl])
    bed.venues.exchanges.hl.setFaults({ outage: true })
    try {
      const sub = await submit(
        bed,
        batch.bindingId,
        await signAll(wallet, batch.signRequests),
      )
      expect(sub.status, sub.text).toBe(202)
      await bed.drain()
      const uncertain = await read(bed, wallet, batch.bindingId)
      expect(uncertain.body.status).toBe('processing')
      expect(statuses(uncertain.body)).toEqual({ hl: 'confirming' })
      bed.clock.advance(SESSION_MS + 5_000)
      await bed.drain()
      const late = await read(bed, wallet, batch.bindingId)
      expect(statuses(late.body)).toEqual({ hl: 'confirming' })
    } finally {
      bed.venues.exchanges.hl.setFaults({})
    }
    bed.clock.advance(5_000)
    await bed.drain()
    const done = await read(bed, wallet, batch.bindingId)
    expect(done.body.status).toBe('bound')
    expect(statuses(done.body)).toEqual({ hl: 'bound' })
  })

  it('after expiry unsigned venues expire: partial_success with bound ones, failed without', async () => {
    const wallet = newWallet()
    const owner = wallet.address.toLowerCase()
    const [hl, aster] = allTargets(bed, owner)
    const mixed = await prepared(bed, wallet, [hl, aster])
    const lone = await prepared(bed, newWallet(), [{ venue: 'aster' }])
    const hlSigs = await signAll(
      wallet,
      mixed.signRequests.filter((r: SignRequest) => r.venue === 'hl'),
    )
    expect((await submit(bed, mixed.bindingId, hlSigs)).status).toBe(202)
    await bed.drain()
    const before = await read(bed, wallet, mixed.bindingId)
    expect(before.body.status).toBe('awaiting_signatures')
    expect(statuses(before.body)).toEqual({
      hl: 'bound',
      aster: 'awaiting_signatures',
    })
    expect(requestIds(before.body)).toEqual(['aster:approveAgent'])

    bed.clock.advance(SESSION_MS)
    await bed.drain()
    const after = await read(bed, wallet, mixed.bindingId)
    expect(after.status, after.text).toBe(200)
    expect(after.body.status).toBe('partial_success')
    expect(statuses(after.body)).toEqual({ hl: 'bound', aster: 'expired' })
    expect(after.body.signRequests).toEqual([])
    expect(await bed.svc.store.bindings.get(owner, 'hl')).toMatchObject({
      status: 'bound',
    })
    expect(await bed.svc.store.bindings.get(owner, 'aster')).toBeUndefined()

    const stored = await bed.svc.store.bindingBatches.get(lone.bindingId)
    expect(stored?.status).toBe('failed')
    expect(stored?.venues.map((v) => v.status)).toEqual(['expired'])
  })
})
