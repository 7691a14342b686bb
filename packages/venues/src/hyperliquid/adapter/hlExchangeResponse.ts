import { VenueRejectedError } from '@dn/core'
import { isObj } from '../../wire/jsonFields.js'

/**
 * The `response` of an `/exchange` answer (`{status: 'ok', response}`),
 * or null when it has another shape; `{status: 'err', response}` is the
 * venue refusing the action.
 * @throws VenueRejectedError with the venue's words
 */
export function hlExchangeResponse(raw: unknown): unknown {
  if (isObj(raw) && raw.status === 'err') {
    throw new VenueRejectedError(
      typeof raw.response === 'string'
        ? raw.response
        : JSON.stringify(raw.response),
    )
  }
  return isObj(raw) && raw.status === 'ok' ? raw.response : null
}
