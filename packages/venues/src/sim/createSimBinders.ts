import {
  type BindingConfig,
  type Clock,
  VENUES,
  type VenueBinder,
  type VenueId,
} from '@dn/core'
import { changePubKeyL1Message } from '../lighter/signer/changePubKey.js'
import { generateLighterKeyPair } from '../lighter/signer/lighterKeys.js'
import { createSimBinder } from './simBinder.js'
import type { SimVenues } from './simVenues.js'

/**
 * One binder per simulated venue, generating real Lighter API keys with our
 * signer. The API (prepare's usability check) and the worker (completion)
 * must share these objects: the simulated venues remember authorizations in
 * memory.
 */
export function createSimBinders(
  venues: Pick<SimVenues, 'exchanges'>,
  config: BindingConfig,
  clock?: Clock,
): Record<VenueId, VenueBinder> {
  const binders = {} as Record<VenueId, VenueBinder>
  for (const venue of VENUES) {
    binders[venue] = createSimBinder({
      venue,
      exchange: venues.exchanges[venue],
      config,
      ...(clock ? { clock } : {}),
      lighterKeys: generateLighterKeyPair,
      changePubKeyMessage: changePubKeyL1Message,
    })
  }
  return binders
}
