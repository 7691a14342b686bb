import type { RequestLogRecord, Store } from '@dn/core'
import type { Logger } from './logger.js'

export interface RequestLogWriter {
  /** Queues a row; it is committed with the next batch. */
  write(log: RequestLogRecord): void
  /** Commits everything queued so far (reads of the logs call this). */
  flush(): Promise<void>
}

interface RequestLogWriterOptions {
  readonly store: Store
  readonly logger: Logger
  /** rows kept per key and family */
  readonly keep: number
  /** longest a row waits before its batch commits @default 10 */
  readonly flushMs?: number
}

/**
 * Writes request-log rows in batches: one commit (one fsync on SQLite with
 * synchronous=FULL) for many requests instead of one each. A row is at most
 * `flushMs` behind its response; a lost batch is logged, never an error to
 * the caller whose command already committed.
 */
export function createRequestLogWriter(
  o: RequestLogWriterOptions,
): RequestLogWriter {
  let queue: RequestLogRecord[] = []
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> = Promise.resolve()

  const commit = async (batch: RequestLogRecord[]) => {
    try {
      await o.store.transaction((tx) => tx.requestLogs.insert(batch, o.keep))
    } catch (err) {
      o.logger.error('request log batch lost', {
        rows: batch.length,
        error: err instanceof Error ? err.message : String(err),
      })
    }
  }

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer)
    timer = undefined
    const batch = queue
    queue = []
    if (batch.length > 0) running = running.then(() => commit(batch))
    return running
  }

  return {
    write(log) {
      queue.push(log)
      timer ??= setTimeout(() => void flush(), o.flushMs ?? 10)
    },
    flush,
  }
}
