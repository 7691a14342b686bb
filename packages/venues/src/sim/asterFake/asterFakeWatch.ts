import type { AsterFakeState } from './asterFakeState.js'
import { observeMarks } from './asterFakeTape.js'
import { sweepTriggers } from './asterFakeTriggers.js'

/**
 * Watches the engine between requests, as the venue's matching engine
 * would: every `intervalMs` it records the marks (klines, tickers,
 * funding history) and hands conditional orders whose stop price the
 * mark reached to the engine, so a stop fires without a REST request.
 * Paused while the engine has an outage fault.
 * @returns stops the watch
 */
export function watchAsterFake(
  state: AsterFakeState,
  intervalMs: number,
): () => void {
  if (intervalMs <= 0) return () => {}
  const timer = setInterval(() => {
    if (state.exchange.faults().outage) return
    try {
      observeMarks(state)
      sweepTriggers(state)
    } catch {
      // a timer must not take the server down; the next request will
      // meet the same engine error and answer it
    }
  }, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
