import {
  type CancelAllSwitch,
  type RequestPriority,
  UncertainSubmissionError,
  type VenueCredential,
  VenueRejectedError,
} from '@dn/core'
import type { AsterParam } from '../signing/formEncode.js'
import { isObj } from './asterWire.js'

/**
 * Aster's dead-man switch, `POST /fapi/v3/countdownCancelAll` (TRADE,
 * weight 10) with `symbol` and `countdownTime` (ms; 0 stops the timer):
 * "Cancel all open orders of the specified symbol at the end of the
 * specified countdown", called again as a heartbeat to replace the
 * countdown (asterdex/api-docs "V3(Recommended)/EN/aster-finance-futures-
 * api-v3.md", Auto-Cancel All Open Orders). One per symbol. The venue
 * checks countdowns about every 10 ms. No bounds on `countdownTime` are
 * published: at least a second, at most a day here [unverified].
 */
export const ASTER_CANCEL_ALL_SWITCH: CancelAllSwitch = Object.freeze({
  scope: 'market',
  minLeadMs: 1_000,
  maxLeadMs: 86_400_000,
})

const PATH = '/fapi/v3/countdownCancelAll'

/** A signed Aster request (the adapter's). */
type AsterSigned = (
  cred: VenueCredential,
  method: 'POST',
  path: string,
  params: AsterParam[],
  kind: 'write',
  validUntil?: number,
  priority?: RequestPriority,
) => Promise<unknown>

/**
 * Starts (or replaces) the countdown of every market in `markets` so it
 * ends at `at`, or stops them (`at` null): one request per symbol, all at
 * once. The countdown is relative: it ends `at - now` after the venue
 * receives it (Aster's 10 s nonce window bounds the delay).
 * @throws VenueRejectedError refused (an unknown symbol), or `at` not ahead
 * @throws UncertainSubmissionError an answer that is not the symbol's
 */
export async function armAsterCancelAll(
  signed: AsterSigned,
  cred: VenueCredential,
  markets: readonly string[],
  at: number | null,
  now: number,
): Promise<void> {
  const countdown = at === null ? 0 : Math.ceil(at - now)
  if (at !== null && countdown < ASTER_CANCEL_ALL_SWITCH.minLeadMs) {
    throw new VenueRejectedError(
      `aster countdownCancelAll: ${countdown} ms is too short a countdown`,
    )
  }
  await Promise.all(
    markets.map(async (symbol) => {
      const raw = await signed(
        cred,
        'POST',
        PATH,
        [
          ['symbol', symbol],
          ['countdownTime', String(countdown)],
        ],
        'write',
      )
      if (!isObj(raw) || raw.symbol !== symbol) {
        throw new UncertainSubmissionError(
          `aster countdownCancelAll: unexpected answer ${JSON.stringify(raw)?.slice(0, 200)}`,
        )
      }
    }),
  )
}
