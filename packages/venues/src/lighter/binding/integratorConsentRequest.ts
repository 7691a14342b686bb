import type { PersonalSignRequest } from '../../binding/signRequestKinds.js'
import {
  requireAddress,
  requireSafeInteger,
} from '../../binding/signRequestKinds.js'
import { type LighterVenue, requireLighterVenue } from './lighterVenue.js'

/** The integrator account each Lighter venue authorizes (zero extra fee). */
export const LIGHTER_INTEGRATOR_INDEX = {
  lighter: 994,
  'lighter-mainnet': 735705,
} as const

/** The fixed opening of the consent line (the contract's `Approve zero-fee ...`). */
export const LIGHTER_CONSENT_PREFIX =
  'Approve zero-fee integrator (all maker and taker fee caps 0)'

const NONCE = /^[A-Za-z0-9_-]{1,128}$/

/**
 * `<venue>:approveIntegrator`: the owner's one-line consent to the worker
 * approving the venue's integrator with four zero fee caps (Lighter itself
 * needs no L1 signature for zero caps; this is the service's record):
 *
 * `Approve zero-fee integrator (all maker and taker fee caps 0) owner=<owner> venue=<venue> integratorIndex=<994|735705> nonce=<nonce> timestamp=<unix_seconds>`
 *
 * `owner` is written lower-cased; `nonce` is a token of [A-Za-z0-9_-].
 * @throws RangeError on a bad venue, owner, nonce or timestamp
 */
export function lighterIntegratorConsentRequest(input: {
  readonly venue: LighterVenue
  readonly owner: string
  readonly nonce: number | string
  /** Unix seconds */
  readonly timestamp: number
}): PersonalSignRequest {
  const venue = requireLighterVenue(input.venue)
  const owner = requireAddress('owner', input.owner).toLowerCase()
  const nonce = String(input.nonce)
  if (!NONCE.test(nonce)) {
    throw new RangeError(`nonce must match ${NONCE.source}: ${nonce}`)
  }
  const timestamp = requireSafeInteger('timestamp', input.timestamp, 0)
  const message = [
    LIGHTER_CONSENT_PREFIX,
    `owner=${owner}`,
    `venue=${venue}`,
    `integratorIndex=${LIGHTER_INTEGRATOR_INDEX[venue]}`,
    `nonce=${nonce}`,
    `timestamp=${timestamp}`,
  ].join(' ')
  return {
    requestId: `${venue}:approveIntegrator`,
    venue,
    action: 'approveIntegrator',
    method: 'personal_sign',
    payload: { message },
  }
}
