import { DnError } from './DnError.js'

/** A wait helper gave up before the resource reached a wanted state. */
export class DnTimeoutError extends DnError {
  override name = 'DnTimeoutError'
  readonly code = 'wait_timeout'
}
