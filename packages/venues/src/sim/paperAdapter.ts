import {
  dec,
  decString,
  UncertainSubmissionError,
  VenueAccountNotFoundError,
  type VenueAdapter,
  type VenueCredential,
  VenueUnavailableError,
} from '@dn/core'
import type { SimExchange } from './simExchange.js'

/**
 * The VenueAdapter port over a simulated exchange, with its faults applied
 * at the edge, as a network would:
 *
 * - outage: every call but `rules` (published, cached by real adapters)
 *   fails with VenueUnavailableError before anything happens;
 * - latency: every such call waits `latencyMs` on a real timer first;
 * - reject (place only): the engine refuses it (VenueRejectedError, in the
 *   venue's words for insufficient margin), as it does behind the protocol
 *   fakes;
 * - timeout after accept (place only): the engine executes the order, then
 *   the answer is lost: UncertainSubmissionError, and the order is there to
 *   be found by its client order id;
 * - a request past its `validUntil` is refused, nothing placed.
 *
 * `cred.owner` picks the account; on Lighter `cred.accountIndex` must be the
 * faucet's index for that owner, else VenueAccountNotFoundError.
 */
export function createPaperAdapter(exchange: SimExchange): VenueAdapter {
  const venue = exchange.venue
  const gate = async (): Promise<void> => {
    if (exchange.faults().outage) {
      throw new VenueUnavailableError(`${venue} (simulated) is unavailable`)
    }
    const { latencyMs } = exchange.faults()
    if (latencyMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, latencyMs))
    }
  }
  const ownerOf = (cred: VenueCredential): string => {
    if (cred.venue !== venue) {
      throw new VenueAccountNotFoundError(
        `a ${cred.venue} credential cannot act on ${venue}`,
      )
    }
    const index = exchange.accountIndex(cred.owner)
    const lighter = venue === 'lighter' || venue === 'lighter-mainnet'
    if (lighter && cred.accountIndex !== String(index)) {
      throw new VenueAccountNotFoundError(
        `${venue} (simulated) has no account index ${String(cred.accountIndex)} for ${cred.owner}`,
      )
    }
    return cred.owner
  }
  return {
    venue,
    rules: async (symbol) => exchange.rules(symbol),
    symbols: async () => exchange.listed().map((r) => r.symbol),
    async quote(symbol) {
      await gate()
      return exchange.quote(symbol)
    },
    async place(cred, order) {
      await gate()
      const owner = ownerOf(cred)
      // as the real venues do with their signed deadlines
      if (
        order.validUntil !== undefined &&
        order.validUntil <= exchange.now()
      ) {
        throw new VenueUnavailableError(
          `${venue} (simulated): the send window of ${order.clientOrderId} closed`,
        )
      }
      if (!exchange.rollFault('timeoutAfterAccept')) {
        return exchange.place(owner, order)
      }
      try {
        exchange.place(owner, order)
      } catch {
        // the venue's answer, reject or not, is what got lost
      }
      throw new UncertainSubmissionError(
        `${venue} (simulated) timed out after accepting ${order.clientOrderId}`,
      )
    },
    async cancel(cred, market, clientOrderId) {
      await gate()
      exchange.cancel(ownerOf(cred), clientOrderId, market)
    },
    async order(cred, market, clientOrderId) {
      await gate()
      return exchange.order(ownerOf(cred), clientOrderId, market)
    },
    async positions(cred) {
      await gate()
      return exchange.positions(ownerOf(cred))
    },
    async balances(cred) {
      await gate()
      const a = exchange.account(ownerOf(cred))
      return {
        equityUsd: a.crossEquityUsd,
        availableUsd: a.freeMarginUsd,
        // what is held beside the free margin (positions and resting orders)
        marginUsedUsd: decString(dec(a.crossEquityUsd).sub(a.freeMarginUsd)),
        at: exchange.now(),
      }
    },
    async funding(cred, market, since) {
      await gate()
      return exchange.funding(ownerOf(cred), market, since)
    },
  }
}
