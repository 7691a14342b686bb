import { existsSync, readFileSync } from 'node:fs'
import type { VenueId } from '@dn/core'
import Database from 'better-sqlite3'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CustomService,
  createKeyRaw,
  createOrderVia,
  createTaskVia,
  expectError,
  ISO_RE,
  listKeysRaw,
  revokeKeyRaw,
  startCustomService,
  TASKS,
  UUID_RE,
} from './support/httpFixtures.js'
import {
  bindVenues,
  call,
  createOwnerWithKey,
  dialects,
  startPeerService,
  startTestService,
  type TestService,
  testClock,
} from './support/testService.js'
import { newNonce, newWallet } from './support/wallet.js'

const { Client } = pg
const TOKEN_RE =
  /^dn_test_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{43})$/

describe.each(dialects())('API key routes over HTTP (%s)', (dialect) => {
  const clock = testClock()
  const nowSec = () => Math.floor(clock.now() / 1000)
  let svc: TestService

  beforeAll(async () => {
    svc = await startTestService({ dialect, clock })
  })
  afterAll(() => svc?.close())

  const boundWallet = async (venues: VenueId[] = ['hl', 'aster']) => {
    const w = newWallet()
    await bindVenues(svc.store, w.address.toLowerCase(), venues)
    return w
  }

  it('201 shows the secret once; the list never shows it', async () => {
    const w = await boundWallet()
    const res = await createKeyRaw(svc, w, {
      venues: ['hl', 'aster'],
      maxSizeUsd: 500.5,
      label: 'bot one',
    })
    expect(res.status).toBe(201)
    const [, keyId, secret] = TOKEN_RE.exec(res.body.apiKey) ?? []
    expect(res.body).toEqual({
      keyId,
      owner: w.address.toLowerCase(),
      venues: ['aster', 'hl'],
      maxSizeUsd: '500.5',
      label: 'bot one',
      createdAt: new Date(clock.now()).toISOString(),
      revokedAt: null,
      apiKey: `dn_test_${keyId}.${secret}`,
    })
    expect(keyId).toMatch(UUID_RE)
    expect(
      (await call(svc, 'GET', TASKS, { key: res.body.apiKey })).status,
    ).toBe(200)

    const list = await listKeysRaw(svc, w)
    expect(list.status).toBe(200)
    expect(list.body.keys).toEqual([
      {
        keyId,
        owner: w.address.toLowerCase(),
        venues: ['aster', 'hl'],
        maxSizeUsd: '500.5',
        label: 'bot one',
        createdAt: expect.stringMatching(ISO_RE),
        revokedAt: null,
      },
    ])
    expect(list.text).not.toContain(secret)
    expect(list.text).not.toContain('apiKey')
  })

  it('409 insufficient_bound_venues with one bound venue', async () => {
    const w = await boundWallet(['hl'])
    expectError(await createKeyRaw(svc, w), 409, 'insufficient_bound_venues')
    const none = newWallet()
    expectError(await createKeyRaw(svc, none), 409, 'insufficient_bound_venues')
    expect((await listKeysRaw(svc, w)).body.keys).toEqual([])
  })

  it('401 for a bad signature, an expired or too distant authorization', async () => {
    const w = await boundWallet()
    expectError(
      await createKeyRaw(svc, w, { signer: newWallet() }),
      401,
      'invalid_signature',
    )
    expectError(
      await createKeyRaw(svc, w, { expiresAt: nowSec() - 1 }),
      401,
      'authorization_expired',
    )
    expectError(
      await createKeyRaw(svc, w, { expiresAt: nowSec() }),
      401,
      'authorization_expired',
    )
    expectError(
      await createKeyRaw(svc, w, { expiresAt: nowSec() + 301 }),
      401,
      'authorization_expiry_too_far',
    )
    expect((await listKeysRaw(svc, w)).body.keys).toEqual([])
    expect(
      (await createKeyRaw(svc, w, { expiresAt: nowSec() + 300 })).status,
    ).toBe(201)
  })

  it('409 nonce_reused; the second key is not created', async () => {
    const w = await boundWallet()
    const nonce = newNonce()
    expect((await createKeyRaw(svc, w, { nonce })).status).toBe(201)
    expectError(
      await createKeyRaw(svc, w, { nonce, maxSizeUsd: 2000 }),
      409,
      'nonce_reused',
    )
    expectError(await createKeyRaw(svc, w, { nonce }), 409, 'nonce_reused')
    expect((await listKeysRaw(svc, w)).body.keys).toHaveLength(1)
  })

  it('400 for bad bodies, 415 for a non-JSON type', async () => {
    const w = await boundWallet()
    const owner = w.address.toLowerCase()
    const auth = {
      nonce: newNonce(),
      expiresAt: nowSec() + 60,
      signature: `0x${'1'.repeat(130)}`,
    }
    const bodies = [
      { owner, venues: ['hl', 'aster'], maxSizeUsd: 100 },
      { owner: 'alice', venues: ['hl'], maxSizeUsd: 100, authorization: auth },
      { owner, venues: [], maxSizeUsd: 100, authorization: auth },
      { owner, venues: ['hl', 'hl'], maxSizeUsd: 100, authorization: auth },
      { owner, venues: ['hl'], maxSizeUsd: 0, authorization: auth },
      {
        owner,
        venues: ['hl'],
        maxSizeUsd: 100,
        authorization: { ...auth, nonce: 'short' },
      },
      {
        owner,
        venues: ['hl'],
        maxSizeUsd: 100,
        authorization: { ...auth, signature: '0x12' },
      },
      {
        owner,
        venues: ['hl'],
        maxSizeUsd: 100,
        authorization: auth,
        scope: 'withdraw',
      },
    ]
    for (const body of bodies) {
      expectError(
        await call(svc, 'POST', '/v1/api-keys', { body }),
        400,
        'invalid_body',
      )
    }
    expectError(
      await call(svc, 'POST', '/v1/api-keys', { rawBody: '{' }),
      400,
      'invalid_json',
    )
    expectError(
      await call(svc, 'POST', '/v1/api-keys', {
        rawBody: '{}',
        headers: { 'content-type': 'text/plain' },
      }),
      415,
      'unsupported_media_type',
    )
  })

  it('list: 400 without wallet headers, 401 for a wrong signer or expiry', async () => {
    const w = await boundWallet()
    expectError(
      await call(svc, 'GET', '/v1/api-keys'),
      400,
      'invalid_wallet_headers',
    )
    const partial = await call(svc, 'GET', '/v1/api-keys', {
      headers: { 'x-wallet-address': w.address },
    })
    expectError(partial, 400, 'invalid_wallet_headers')
    expectError(
      await listKeysRaw(svc, w, { signer: newWallet() }),
      401,
      'invalid_signature',
    )
    expectError(
      await listKeysRaw(svc, w, { expiresAt: nowSec() - 5 }),
      401,
      'authorization_expired',
    )
    expectError(
      await listKeysRaw(svc, w, { expiresAt: nowSec() + 301 }),
      401,
      'authorization_expiry_too_far',
    )
  })

  it('revoke: 200, then the key is refused at once; 404 for another owner; 409 twice', async () => {
    const a = await createOwnerWithKey(svc)
    const other = await createOwnerWithKey(svc)
    expect((await call(svc, 'GET', TASKS, { key: a.apiKey })).status).toBe(200)
    expectError(
      await revokeKeyRaw(svc, other.wallet, a.keyId),
      404,
      'api_key_not_found',
    )
    expect((await call(svc, 'GET', TASKS, { key: a.apiKey })).status).toBe(200)
    const res = await revokeKeyRaw(svc, a.wallet, a.keyId)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      keyId: a.keyId,
      owner: a.owner,
      revokedAt: new Date(clock.now()).toISOString(),
    })
    expect(res.text).not.toContain(a.apiKey.split('.')[1])
    expectError(
      await call(svc, 'GET', TASKS, { key: a.apiKey }),
      401,
      'unauthorized',
    )
    expectError(
      await call(svc, 'GET', '/v1/perp/orders', { key: a.apiKey }),
      401,
      'unauthorized',
    )
    expectError(
      await revokeKeyRaw(svc, a.wallet, a.keyId),
      409,
      'api_key_revoked',
    )
    expectError(
      await revokeKeyRaw(svc, a.wallet, 'not-a-uuid'),
      400,
      'invalid_path_id',
    )
    expect((await call(svc, 'GET', TASKS, { key: other.apiKey })).status).toBe(
      200,
    )
    const listed = (await listKeysRaw(svc, a.wallet)).body.keys
    expect(listed).toEqual([
      expect.objectContaining({
        keyId: a.keyId,
        revokedAt: expect.stringMatching(ISO_RE),
      }),
    ])
  })

  it('revoke: another server on the database, holding the key in its cache, refuses it at once', async () => {
    const peer = await startPeerService(svc)
    // SQLite's peer reads the revocation counter on every request, so it
    // refuses at once; PostgreSQL's hears a NOTIFY sent at commit, which
    // the database delivers a moment later: the test waits for that.
    const heard = async (
      store: { revocationMark(): Promise<string | undefined> },
      before: string | undefined,
    ) => {
      if (dialect === 'sqlite') return
      const until = Date.now() + 3000
      while ((await store.revocationMark()) === before) {
        if (Date.now() > until) throw new Error('the NOTIFY never came')
        await new Promise((r) => setTimeout(r, 2))
      }
    }
    try {
      const a = await createOwnerWithKey(svc)
      const b = await createOwnerWithKey(svc)
      // both servers have read (and cached) both keys
      for (const s of [svc, peer]) {
        for (const k of [a, b]) {
          expect((await call(s, 'GET', TASKS, { key: k.apiKey })).status).toBe(
            200,
          )
        }
      }
      // PostgreSQL's first mark starts its LISTEN; keys are cached once it runs
      let before = await peer.store.revocationMark()
      for (let i = 0; before === undefined && i < 300; i++) {
        await new Promise((r) => setTimeout(r, 10))
        before = await peer.store.revocationMark()
      }
      expect(before).not.toBeUndefined()
      for (const k of [a, b]) await call(peer, 'GET', TASKS, { key: k.apiKey })
      expect((await revokeKeyRaw(svc, a.wallet, a.keyId)).status).toBe(200)
      await heard(peer.store, before)
      for (const s of [peer, svc]) {
        expectError(
          await call(s, 'GET', TASKS, { key: a.apiKey }),
          401,
          'unauthorized',
        )
        expect((await call(s, 'GET', TASKS, { key: b.apiKey })).status).toBe(
          200,
        )
      }
      // and the other way round: the revoking server itself at once
      before = await svc.store.revocationMark()
      expect((await revokeKeyRaw(peer, b.wallet, b.keyId)).status).toBe(200)
      expectError(
        await call(peer, 'GET', TASKS, { key: b.apiKey }),
        401,
        'unauthorized',
      )
      await heard(svc.store, before)
      expectError(
        await call(svc, 'GET', TASKS, { key: b.apiKey }),
        401,
        'unauthorized',
      )
    } finally {
      await peer.close()
    }
  })
})

/** Every row of every table, as `[table, text of all values]`. */
async function dumpRows(svc: CustomService): Promise<[string, string][]> {
  const text = (row: Record<string, unknown>) =>
    Object.values(row)
      .map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
      .join('\u0000')
  const out: [string, string][] = []
  if (svc.dbFile === undefined) {
    const pg = new Client({ connectionString: process.env.DN_TEST_PG_URL })
    await pg.connect()
    try {
      const { rows } = await pg.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = $1 AND table_type = 'BASE TABLE'`,
        [svc.pgSchema],
      )
      for (const { table_name: t } of rows) {
        const all = await pg.query(`SELECT * FROM "${svc.pgSchema}"."${t}"`)
        for (const row of all.rows) out.push([t, text(row)])
      }
    } finally {
      await pg.end()
    }
    return out
  }
  const db = new Database(svc.dbFile, { readonly: true })
  try {
    const sql = "SELECT name FROM sqlite_master WHERE type = 'table'"
    for (const { name } of db.prepare(sql).all() as { name: string }[]) {
      const rows = db.prepare(`SELECT * FROM "${name}"`).all()
      for (const row of rows as Record<string, unknown>[]) {
        out.push([name, text(row)])
      }
    }
  } finally {
    db.close()
  }
  return out
}

describe.each(dialects())('API key secrets at rest (%s)', (dialect) => {
  let svc: CustomService
  beforeAll(async () => {
    svc = await startCustomService({ dialect })
  })
  afterAll(() => svc?.close())

  it('no table, file or log line holds a key secret', async () => {
    const owners = [
      await createOwnerWithKey(svc),
      await createOwnerWithKey(svc, { venues: ['hl', 'aster'] }),
    ]
    const hlAster = { shortVenue: 'aster', shortMarket: 'BTCUSDT' }
    for (const o of owners) {
      await createTaskVia(svc, o.apiKey, hlAster)
      await createOrderVia(svc, o.apiKey)
      await call(svc, 'GET', TASKS, { key: o.apiKey })
      await call(svc, 'GET', '/v1/requests', { key: o.apiKey })
      await call(svc, 'POST', TASKS, { key: o.apiKey, body: { bad: true } })
    }
    const revoked = await createOwnerWithKey(svc)
    const res = await revokeKeyRaw(svc, revoked.wallet, revoked.keyId)
    expect(res.status).toBe(200)
    await call(svc, 'GET', TASKS, { key: revoked.apiKey })
    // reading the logs commits any queued request-log rows
    await call(svc, 'GET', '/v1/perp/requests', { key: owners[0]?.apiKey })
    const all = [...owners, revoked]
    const secrets = all.map((o) => o.apiKey.split('.')[1] as string)
    for (const s of secrets) expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const rows = await dumpRows(svc)
    const tables = new Set(rows.map(([t]) => t))
    // biome-ignore format: a list of table names
    for (const t of ['api_keys', 'request_logs', 'idempotency_keys', 'tasks',
      'perp_orders', 'wallet_nonces']) expect(tables).toContain(t)
    // the rows of this test are in the dump
    const keyRows = rows.filter(
      ([t, r]) => t === 'api_keys' && r.includes(revoked.keyId),
    )
    expect(keyRows).toHaveLength(1)
    for (const [table, text] of rows) {
      for (const s of secrets) {
        expect(text.includes(s), `secret found in ${table}`).toBe(false)
      }
    }
    const files = svc.dbFile ? [svc.dbFile, `${svc.dbFile}-wal`] : []
    for (const file of files.filter((f) => existsSync(f))) {
      const bytes = readFileSync(file).toString('latin1')
      for (const s of secrets) {
        expect(bytes.includes(s), `secret found in ${file}`).toBe(false)
      }
    }
    expect(svc.logs.length).toBeGreaterThan(10)
    const logs = svc.logs.join('\n')
    for (const s of secrets) expect(logs.includes(s)).toBe(false)
  })
})
