import type { PersonalSignRequest } from '../../binding/signRequestKinds.js'
import { type LighterVenue, requireLighterVenue } from './lighterVenue.js'

/**
 * `<venue>:changePubKey`: the owner's L1 wallet personal-signs Lighter's
 * multi-line registration message for a new API key. The message is built
 * by the Lighter signer (`changePubKeyL1Message`) and passed in unchanged.
 * @throws RangeError on a non-Lighter venue or an empty message
 */
export function lighterChangePubKeyRequest(input: {
  readonly venue: LighterVenue
  readonly message: string
}): PersonalSignRequest {
  const venue = requireLighterVenue(input.venue)
  if (input.message.length === 0) {
    throw new RangeError('changePubKey message is empty')
  }
  return {
    requestId: `${venue}:changePubKey`,
    venue,
    action: 'changePubKey',
    method: 'personal_sign',
    payload: { message: input.message },
  }
}
