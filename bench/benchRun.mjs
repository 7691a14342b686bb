// What every venue budget benchmark does around its measurement: a log
// line with the time, the worker's errors kept, teardown in reverse order
// (each close bounded), a watchdog, and the run that reports or fails.
import { setTimeout as sleep } from 'node:timers/promises'

const stamp = () => new Date().toISOString().slice(11, 23)
export const log = (...a) => console.error(`[${stamp()}]`, ...a)

/**
 * @param name shown when the run fails or times out
 * @param watchdogMs the whole run's limit: past it, teardown and exit 1
 */
export function benchRun(name, watchdogMs) {
  const workerErrors = []
  const workerLogger = {
    info() {},
    error(msg, fields) {
      workerErrors.push({ at: Date.now(), msg, fields })
    },
  }
  /** `[name, close]` pairs, closed last first */
  const closers = []
  let closing = null
  const closeAll = () => {
    closing ??= (async () => {
      for (const [what, close] of closers.reverse()) {
        try {
          await Promise.race([
            close(),
            sleep(10_000).then(() => {
              throw new Error('close timed out')
            }),
          ])
        } catch (err) {
          log(`closing ${what} failed:`, err?.message ?? err)
        }
      }
    })()
    return closing
  }
  const watchdog = setTimeout(async () => {
    log(`${name}: timed out after ${watchdogMs / 1000} s`)
    await closeAll()
    process.exit(1)
  }, watchdogMs)
  watchdog.unref()
  const errorLine = (e) =>
    `${e.msg} ${JSON.stringify(e.fields ?? {}).slice(0, 300)}`
  return {
    workerErrors,
    workerLogger,
    closers,
    errorLine,
    /** Runs `main`, prints `report(result)`; 0 or 1, torn down either way. */
    async run(main, report) {
      let code = 0
      try {
        report(await main())
      } catch (err) {
        code = 1
        log(`${name} failed:`, err?.stack ?? err)
        for (const e of workerErrors.slice(0, 5)) {
          log(`worker error: ${errorLine(e)}`)
        }
      } finally {
        await closeAll()
        clearTimeout(watchdog)
      }
      return code
    },
  }
}
