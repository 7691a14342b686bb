import { describe, expect, test } from 'vitest'
import { openSqliteDatabase } from './openSqliteDatabase.js'
import { sqliteStatementCache } from './sqliteStatementCache.js'

describe('sqliteStatementCache', () => {
  test('one prepared statement per SQL text, reused while idle', () => {
    const db = openSqliteDatabase(':memory:')
    const cache = sqliteStatementCache(db)
    const a = cache.prepare('select 1 as x')
    expect(cache.prepare('select 1 as x')).toBe(a)
    expect(cache.prepare('select 2 as x')).not.toBe(a)
    cache.close()
    expect(db.open).toBe(false)
  })

  test('a statement still iterating is not handed out again', () => {
    const db = openSqliteDatabase(':memory:')
    const cache = sqliteStatementCache(db)
    const sql = 'select value from json_each(?)'
    const first = cache.prepare(sql) as unknown as {
      iterate(...p: unknown[]): Iterator<{ value: number }>
    }
    const rows = first.iterate('[1,2,3]')
    expect(rows.next().value).toEqual({ value: 1 })
    const second = cache.prepare(sql)
    expect(second).not.toBe(first)
    // both work: the streamed one goes on where it was
    expect(second.all(['[7]'])).toEqual([{ value: 7 }])
    expect(rows.next().value).toEqual({ value: 2 })
    rows.return?.()
    expect(cache.prepare(sql)).toBe(first)
    cache.close()
  })

  test('holds at most its size, dropping the least recently used', () => {
    const db = openSqliteDatabase(':memory:')
    const cache = sqliteStatementCache(db, 2)
    const one = cache.prepare('select 1')
    const two = cache.prepare('select 2')
    // 'select 1' is used again: 'select 2' is now the oldest
    expect(cache.prepare('select 1')).toBe(one)
    cache.prepare('select 3')
    expect(cache.prepare('select 1')).toBe(one)
    expect(cache.prepare('select 2')).not.toBe(two)
    cache.close()
  })
})
