import { type AppErrorOptions, VenueRejectedError } from '@dn/core'

/**
 * Aster answered `{"code": <negative>, "msg": "…"}`: the request was
 * refused. A VenueRejectedError (code `venue_rejected`) whose `reason` is
 * the venue's `msg`, keeping Aster's own number in `venueCode` (e.g.
 * -1022 bad signature, -4014 off tick, -2019 margin, -2013 no such order).
 */
export class AsterRejectedError extends VenueRejectedError {
  override name = 'AsterRejectedError'
  /** Aster's error code, e.g. -2013 */
  readonly venueCode: number
  constructor(venueCode: number, msg: string, options?: AppErrorOptions) {
    super(msg, options)
    this.venueCode = venueCode
  }
}
