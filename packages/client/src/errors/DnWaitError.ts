import { DnError } from './DnError.js'

/**
 * A wait helper stopped early: the resource reached a final state that is
 * not one the caller waited for, so polling longer cannot help.
 */
export class DnWaitError<R = unknown> extends DnError {
  override name = 'DnWaitError'
  readonly code = 'wait_ended'
  /** the last object read */
  readonly resource: R
  /** the final state it reached */
  readonly status: string

  constructor(message: string, resource: R, status: string) {
    super(message)
    this.resource = resource
    this.status = status
  }
}
