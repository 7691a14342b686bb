import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import { runStoreContract } from '../ports/store.contract.js'
import type { Store } from '../ports/store.js'
import { changeChannel } from './changeWatch.js'
import { createPostgresStore } from './postgres.js'

const url = process.env.DN_TEST_PG_URL

if (url === undefined || url === '') {
  test('postgres store contract needs DN_TEST_PG_URL', () => {
    const message =
      'DN_TEST_PG_URL is not set, so the PostgreSQL store contract did not run. ' +
      'Start one with: export DN_TEST_PG_URL=$(scripts/pg-up.sh dn_test)'
    if (process.env.CI) throw new Error(`${message} (required under CI)`)
    console.warn(message)
  })
} else {
  // Every run gets its own schemas, dropped afterwards, so parallel runs on
  // one database never see each other's rows.
  const run = `dn_test_${Date.now()}_${randomBytes(4).toString('hex')}`
  const schemas = new Set<string>()
  const schema = (suffix: string) => {
    const name = `${run}_${suffix}`
    schemas.add(name)
    return name
  }

  afterAll(async () => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      for (const name of schemas) {
        await client.query(`drop schema if exists "${name}" cascade`)
      }
    } finally {
      await client.end()
    }
  })

  runStoreContract('postgres', {
    open: (database) =>
      createPostgresStore({ connectionString: url, schema: schema(database) }),
    shared: true,
  })

  describe('postgres store', () => {
    test('behavior: concurrent starts migrate once', async () => {
      const shared = schema('race')
      const stores: Store[] = await Promise.all(
        Array.from({ length: 4 }, () =>
          createPostgresStore({
            connectionString: url,
            schema: shared,
            max: 2,
          }),
        ),
      )
      try {
        const [a, b] = stores
        if (!a || !b) throw new Error('stores')
        expect(a.dialect).toBe('postgres')
        expect(
          await a.walletNonces.use('0xa', 'n', 'x', '2030-01-01T00:00:00Z'),
        ).toBe(true)
        expect(
          await b.walletNonces.use('0xa', 'n', 'x', '2030-01-01T00:00:00Z'),
        ).toBe(false)
      } finally {
        await Promise.all(stores.map((s) => s.close()))
      }
    })

    test('behavior: a pool of one connection still runs transactions', async () => {
      const store = await createPostgresStore({
        connectionString: url,
        schema: schema('single'),
        max: 1,
      })
      try {
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            store.transaction(async (tx) => {
              const hit = await tx.rateLimits.hit('b', 1000 + i, 60_000, 3)
              // a call on the store itself inside fn must not wait for a
              // second connection
              await store.rateLimits.hit('other', 1000, 60_000, 100)
              return hit.allowed
            }),
          ),
        )
        expect(results.filter(Boolean)).toHaveLength(3)
      } finally {
        await store.close()
      }
    })

    test('behavior: the revocation mark is void while its LISTEN connection is down, and new after it', async () => {
      const store = await createPostgresStore({
        connectionString: url,
        schema: schema('listen_loss'),
      })
      const admin = new pg.Client({ connectionString: url })
      await admin.connect()
      const channel = changeChannel('revocations', schema('listen_loss'))
      const listeners = async () =>
        (
          await admin.query(
            'select pid from pg_stat_activity where query = $1',
            [`LISTEN ${channel}`],
          )
        ).rows.map((r: { pid: number }) => r.pid)
      const markWithin = async (ok: (m: string | undefined) => boolean) => {
        const until = Date.now() + 5000
        for (;;) {
          const mark = await store.revocationMark()
          if (ok(mark)) return mark
          if (Date.now() > until) throw new Error(`mark stuck at ${mark}`)
          await new Promise((r) => setTimeout(r, 10))
        }
      }
      try {
        const before = await markWithin((m) => m !== undefined)
        const [pid] = await listeners()
        expect(pid).toBeTypeOf('number')
        await admin.query('select pg_terminate_backend($1)', [pid])
        // notifications sent now would be lost: nothing cached is trusted
        await markWithin((m) => m === undefined)
        const after = await markWithin((m) => m !== undefined)
        expect(after).not.toBe(before)
        expect(await listeners()).toHaveLength(1)
      } finally {
        await admin.end()
        await store.close()
      }
    })

    test('error: a schema name must be a plain identifier', async () => {
      await expect(
        createPostgresStore({ connectionString: url, schema: 'x; drop' }),
      ).rejects.toThrow('invalid schema name')
    })
  })
}
