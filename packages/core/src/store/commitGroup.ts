/** One caller's piece of work in a shared commit, and how to answer it. */
interface Member<T> {
  readonly fn: () => Promise<T>
  resolve(value: T): void
  reject(err: unknown): void
}

type Outcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly error: unknown }

interface CommitGroupOptions {
  /**
   * Runs `fn` in one transaction, committed when it returns (rolled back
   * when it throws); `size` members share it
   */
  readonly transaction: <T>(fn: () => Promise<T>, size: number) => Promise<T>
  /**
   * Runs `fn` in a savepoint of the open transaction: rolled back to it
   * (and only it) when `fn` throws
   */
  readonly savepoint: <T>(fn: () => Promise<T>) => Promise<T>
  /** called with the size of each group that committed (metrics, tests) */
  readonly onCommit?: (size: number) => void
}

/** Run alone when a group's transaction itself failed: each retried apart. */
const ALONE = 1

/**
 * Group commit: calls that arrive while a commit is under way, or in the
 * same turn of the event loop, run one after another in ONE transaction,
 * each in its own savepoint, and are answered once it has committed, so N
 * concurrent commands cost one commit (one fsync on SQLite) instead of N.
 * A call that throws rolls back only its savepoint and gets its error; the
 * others commit. When the shared transaction fails as a whole (the commit,
 * or a deadlock that aborts it), nothing of it is on disk and each member
 * is run again in a transaction of its own, so one member's conflict never
 * fails another. No member is answered before its writes are committed.
 */
export function createCommitGroup(o: CommitGroupOptions) {
  let queue: Member<unknown>[] = []
  let running = false

  const runGroup = async (members: Member<unknown>[]) => {
    const [only] = members
    if (members.length === ALONE && only) {
      // alone, its transaction is its savepoint: two statements fewer
      try {
        const value = await o.transaction(only.fn, ALONE)
        o.onCommit?.(1)
        only.resolve(value)
      } catch (err) {
        only.reject(err)
      }
      return
    }
    const outcomes: Outcome[] = []
    try {
      await o.transaction(async () => {
        outcomes.length = 0
        for (const m of members) {
          try {
            outcomes.push({ ok: true, value: await o.savepoint(m.fn) })
          } catch (error) {
            outcomes.push({ ok: false, error })
          }
        }
      }, members.length)
    } catch {
      // nothing committed: every member again, each on its own
      for (const m of members) await runGroup([m])
      return
    }
    o.onCommit?.(members.length)
    members.forEach((m, i) => {
      const out = outcomes[i]
      if (out?.ok) m.resolve(out.value)
      else m.reject(out?.error)
    })
  }

  const drain = async () => {
    running = true
    try {
      while (queue.length > 0) {
        // the calls of this turn of the event loop join the first one
        await new Promise<void>((r) => setImmediate(r))
        const members = queue
        queue = []
        await runGroup(members)
      }
    } finally {
      running = false
    }
  }

  return function inSharedCommit<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      queue.push({ fn, resolve, reject } as Member<unknown>)
      if (!running) void drain()
    })
  }
}
