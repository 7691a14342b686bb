import type { AppErrorOptions } from '../errors/appError.js'
import { UnavailableError } from '../errors/domain.js'

/** 503: the store failed (migration, finished transaction, broken invariant). */
export class StoreError extends UnavailableError {
  override name = 'StoreError'
  constructor(message: string, options?: AppErrorOptions) {
    super('storage_error', message, options)
  }
}
