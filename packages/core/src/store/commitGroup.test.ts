import { describe, expect, test } from 'vitest'
import { createCommitGroup } from './commitGroup.js'

/** A pretend database: what each transaction committed, and when. */
function bed(o: { failCommits?: number } = {}) {
  const committed: string[][] = []
  let failCommits = o.failCommits ?? 0
  let open: string[] | null = null
  const sizes: number[] = []
  const shared = createCommitGroup({
    async transaction(fn) {
      open = []
      const value = await fn()
      const writes = open
      open = null
      if (failCommits > 0) {
        failCommits -= 1
        throw new Error('commit failed')
      }
      committed.push(writes)
      return value
    },
    async savepoint(fn) {
      const mark = open?.length ?? 0
      try {
        return await fn()
      } catch (err) {
        open?.splice(mark)
        throw err
      }
    },
    onCommit: (n) => sizes.push(n),
  })
  const write = (name: string) => open?.push(name)
  return { shared, committed, sizes, write }
}

describe('createCommitGroup', () => {
  test('default: calls of one turn share one commit, answered after it', async () => {
    const b = bed()
    const answered: string[] = []
    await Promise.all(
      ['a', 'b', 'c'].map((n) =>
        b
          .shared(async () => {
            b.write(n)
            return n
          })
          .then((v) => answered.push(`${v}:${b.committed.length}`)),
      ),
    )
    expect(b.committed).toEqual([['a', 'b', 'c']])
    expect(b.sizes).toEqual([3])
    // each answer came once its commit was done
    expect(answered).toEqual(['a:1', 'b:1', 'c:1'])
  })

  test('calls arriving during a commit join the next group', async () => {
    const b = bed()
    let release = () => {}
    const slow = b.shared(async () => {
      b.write('first')
      await new Promise<void>((r) => {
        release = r
      })
    })
    await new Promise((r) => setImmediate(r))
    const later = ['x', 'y'].map((n) =>
      b.shared(async () => {
        b.write(n)
      }),
    )
    release()
    await Promise.all([slow, ...later])
    expect(b.committed).toEqual([['first'], ['x', 'y']])
  })

  test('a call that throws gets its error; its writes roll back, the others commit', async () => {
    const b = bed()
    const results = await Promise.allSettled(
      ['a', 'bad', 'c'].map((n) =>
        b.shared(async () => {
          b.write(n)
          if (n === 'bad') throw new Error('refused')
          return n
        }),
      ),
    )
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ])
    expect(b.committed).toEqual([['a', 'c']])
  })

  test('a failed shared commit: each member is run again alone, none answered before its own commit', async () => {
    const b = bed({ failCommits: 1 })
    const results = await Promise.allSettled(
      ['a', 'b'].map((n) =>
        b.shared(async () => {
          b.write(n)
          return n
        }),
      ),
    )
    expect(results).toEqual([
      { status: 'fulfilled', value: 'a' },
      { status: 'fulfilled', value: 'b' },
    ])
    expect(b.committed.map((c) => c.join())).toEqual(['a', 'b'])
    expect(b.sizes).toEqual([1, 1])
  })

  test('a member alone whose commit fails gets the commit error', async () => {
    const b = bed({ failCommits: 1 })
    await expect(b.shared(async () => b.write('a'))).rejects.toThrow(
      'commit failed',
    )
    expect(b.committed).toEqual([])
  })
})
