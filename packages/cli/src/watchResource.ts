import { DnTimeoutError } from '@dn/client'
import { EndedError } from './errors/cliErrors.js'
import { FRAMES } from './output.js'

interface WatchOptions<T> {
  /** e.g. `task 6f1c…`, for messages */
  readonly what: string
  readonly read: () => Promise<T>
  readonly status: (t: T) => string
  /** the block drawn for one reading (text mode) */
  readonly render: (t: T) => string
  /** statuses that end the watch well */
  readonly until: readonly string[]
  /** statuses that end it otherwise (exit code 8) */
  readonly ended: readonly string[]
  readonly json: boolean
  readonly intervalMs: number
  readonly timeoutMs: number
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Polls a task or order until it reaches a wanted or a terminal status.
 * On a terminal it redraws one block in place, like `kubectl get -w`
 * would if it redrew; piped, it prints the block at each change; with
 * --json nothing until the caller prints the final object.
 */
export async function watchResource<T>(o: WatchOptions<T>): Promise<T> {
  const tty = process.stdout.isTTY === true && !o.json
  const deadline = Date.now() + o.timeoutMs
  let drawn = 0
  let lastStatus = ''
  let lastBlock = ''
  for (let frame = 0; ; frame++) {
    const t = await o.read()
    const status = o.status(t)
    const done = o.until.includes(status) || o.ended.includes(status)
    if (tty) {
      const block = `${o.render(t)}\n${
        done
          ? ''
          : `${FRAMES[frame % FRAMES.length]} watching ${o.what}: ${status} (Ctrl-C stops watching, not the ${o.what.split(' ')[0]})\n`
      }`
      if (drawn > 0) process.stdout.write(`\x1b[${drawn}F\x1b[0J`)
      process.stdout.write(block)
      drawn = block.split('\n').length - 1
    } else if (!o.json && status !== lastStatus) {
      const block = o.render(t)
      if (block !== lastBlock) process.stdout.write(`${block}\n\n`)
      lastBlock = block
    }
    lastStatus = status
    if (o.until.includes(status)) return t
    if (o.ended.includes(status)) {
      throw new EndedError(
        `${o.what} ended ${status} while waiting for ${o.until.join(' or ')}`,
        t,
      )
    }
    if (Date.now() > deadline) {
      throw new DnTimeoutError(
        `${o.what} still ${status} after ${Math.round(o.timeoutMs / 1000)} s; watch again with a longer --timeout`,
      )
    }
    await sleep(o.intervalMs)
  }
}
