import type { WorkerEvent } from '../ports/workerObserver.js'
import type { WorkerDeps } from './workerDeps.js'

const MESSAGE: Readonly<Record<WorkerEvent['type'], string>> = {
  transition: 'worker transition',
  venueSubmit: 'venue submit',
  leaseSteal: 'lease taken over',
  pickup: 'work claimed',
  externalChange: 'external change',
}

/**
 * The one way the worker reports an event: a log line with its ids (debug
 * for a submit's or a claim's timing, info otherwise) and the observer, if
 * any.
 */
export function reportWorkerEvent(
  deps: Pick<WorkerDeps, 'logger' | 'observer' | 'workerId'>,
  event: WorkerEvent,
): void {
  const { type, ...fields } = event
  const line = { workerId: deps.workerId, event: type, ...fields }
  // timings are debug lines: one per submit or claim
  if (type === 'venueSubmit' || type === 'pickup') {
    deps.logger.debug?.(MESSAGE[type], line)
  } else deps.logger.info(MESSAGE[type], line)
  deps.observer?.observe(event)
}
