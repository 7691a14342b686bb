import { VenueUnavailableError } from '@dn/core'
import type { LighterSignedTx } from '../signer/types.js'
import type { LighterAdapterContext } from './lighterAdapterContext.js'
import type { LighterSigningKey } from './lighterCredential.js'
import { isInvalidNonce } from './lighterRejectedError.js'
import { intField } from './lighterWireValue.js'

/** lighter-go `DefaultExpireTime`: a tx is valid 10 min - 1 s. */
const TX_TTL_MS = 10 * 60_000 - 1000

/**
 * Signs and sends one tx with the key's next nonce. `invalid nonce` means
 * the tx was refused (another process used that nonce): the nonce is
 * re-read and the tx re-signed and resent, up to `ctx.nonceRetries`
 * times. Every other error is thrown as is (see the nonce manager for
 * what it does to the count).
 *
 * @returns the `sendTx` answer (`tx_hash`, ...).
 */
export async function sendLighterTx(
  ctx: LighterAdapterContext,
  key: LighterSigningKey,
  build: (nonce: number, expiredAt: number) => LighterSignedTx,
  /** Unix ms after which the sequencer must not execute the tx */
  validUntil?: number,
): Promise<Record<string, unknown>> {
  const ref = { accountIndex: key.accountIndex, apiKeyIndex: key.apiKeyIndex }
  const fetchNext = async () => {
    const raw = await ctx.transport.get(
      'nextNonce',
      { account_index: key.accountIndex, api_key_index: key.apiKeyIndex },
      ctx.authToken(key),
      'order',
    )
    const nonce = intField(raw.nonce)
    if (nonce === null || nonce < 0) {
      throw new RangeError(
        `lighter nextNonce: no nonce in ${JSON.stringify(raw)}`,
      )
    }
    return nonce
  }
  // The budget first, outside the key's nonce lock: sends of one key go
  // one at a time, and a send waiting there for budget (up to its max
  // wait) would hold every later order of the key behind it.
  // Not past the send's window: a tx it does not cover is not sent, and
  // budget counted for it would be spent on nothing.
  await ctx.transport.reserveSendTx(
    key.l1Address,
    validUntil === undefined
      ? undefined
      : Math.max(0, validUntil - ctx.clock.now()),
  )
  for (let attempt = 0; ; attempt++) {
    try {
      return await ctx.nonces.withNonce(ref, fetchNext, (nonce) => {
        const now = ctx.clock.now()
        const expiredAt = Math.min(now + TX_TTL_MS, validUntil ?? Infinity)
        if (expiredAt <= now) {
          // nothing sent: the nonce was not used
          throw new VenueUnavailableError(
            'lighter: the send window closed before the transaction was sent',
          )
        }
        const tx = build(nonce, expiredAt)
        // a resend after `invalid nonce` pays for itself
        return ctx.transport.sendTx(
          tx.txType,
          tx.txInfo,
          key.l1Address,
          attempt === 0,
        )
      })
    } catch (err) {
      if (isInvalidNonce(err) && attempt < ctx.nonceRetries) continue
      throw err
    }
  }
}
