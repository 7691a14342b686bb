import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { runStoreContract } from '../ports/store.contract.js'
import { openSqliteDatabase } from './openSqliteDatabase.js'
import { createSqliteStore } from './sqlite.js'

const dir = mkdtempSync(join(tmpdir(), 'dn-sqlite-store-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

runStoreContract('sqlite file', {
  open: (database) =>
    createSqliteStore({ filename: join(dir, `contract-${database}.db`) }),
  shared: false,
})
runStoreContract('sqlite :memory:', {
  open: () => createSqliteStore({ filename: ':memory:' }),
  shared: false,
})

describe('sqlite store', () => {
  test('behavior: connection pragmas', () => {
    const db = openSqliteDatabase(join(dir, 'pragmas.db'))
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
      expect(db.pragma('synchronous', { simple: true })).toBe(2)
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000)
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    } finally {
      db.close()
    }
  })

  test('behavior: reopening a migrated file keeps its data', async () => {
    const filename = join(dir, 'reopen.db')
    const first = await createSqliteStore({ filename })
    expect(
      await first.walletNonces.use(
        '0xa',
        'n1',
        'x',
        '2030-01-01T00:00:00.000Z',
      ),
    ).toBe(true)
    await first.close()
    const second = await createSqliteStore({ filename })
    expect(second.dialect).toBe('sqlite')
    expect(
      await second.walletNonces.use(
        '0xa',
        'n1',
        'x',
        '2030-01-01T00:00:00.000Z',
      ),
    ).toBe(false)
    await second.close()
  })
})
