import { createLighterAuthToken } from '../../lighter/signer/authToken.js'
import type { LighterTxHeader } from '../../lighter/signer/types.js'
import { keyId } from '../lighterFake/lighterFakeState.js'
import type { LighterTestBed } from './lighterTestBed.js'

/** What a test needs to sign for a test bed's bound API key. */
export interface LighterTxKit {
  readonly accountIndex: number
  readonly apiKeyIndex: number
  /** 0x + 80 hex */
  readonly privateKey: string
  /**
   * a tx header: the slot's next nonce (plus `ahead`, for the later txs
   * of a batch), 10 minutes to live
   */
  header(ahead?: number): LighterTxHeader
  /** an auth token of the key, live for an hour */
  authToken(): string
}

/**
 * Test kit: signing material for the API key a test bed bound, on the
 * bed's clock (`now`). The nonce is the fake's next one for the slot,
 * so a refused tx does not put the kit out of step.
 * @internal
 */
export function lighterTxKit(
  bed: LighterTestBed,
  now: () => number,
): LighterTxKit {
  const [account, apiKey] = (bed.cred.credentialRef ?? '')
    .split(':')
    .map(Number)
  const accountIndex = account ?? Number.NaN
  const apiKeyIndex = apiKey ?? Number.NaN
  const privateKey = bed.cred.secret ?? ''
  return {
    accountIndex,
    apiKeyIndex,
    privateKey,
    header: (ahead = 0) => ({
      chainId: bed.fake.chainId,
      nonce:
        (bed.fake.state.nonces.get(keyId(accountIndex, apiKeyIndex)) ?? 0) +
        ahead,
      expiredAt: now() + 600_000,
      accountIndex,
      apiKeyIndex,
    }),
    authToken: () =>
      createLighterAuthToken({
        deadline: Math.floor(now() / 1000) + 3600,
        accountIndex,
        apiKeyIndex,
        privateKey,
      }),
  }
}
