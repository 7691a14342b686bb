import { type LighterVenue, requireLighterVenue } from './lighterVenue.js'

/** Lighter signer chain ids (the contract's rule 7); not settlement chains. */
export const LIGHTER_SIGNER_CHAIN_IDS = {
  lighter: 466324,
  'lighter-mainnet': 304,
  testnet: 300,
} as const

/**
 * The chain id Lighter's L2 signatures of this deployment carry: 466324
 * for `lighter` (brokerage-affiliated production), 304 for
 * `lighter-mainnet`, 300 for either testnet.
 */
export function lighterSignerChainId(
  venue: LighterVenue,
  testnet: boolean,
): number {
  requireLighterVenue(venue)
  return testnet
    ? LIGHTER_SIGNER_CHAIN_IDS.testnet
    : LIGHTER_SIGNER_CHAIN_IDS[venue]
}
