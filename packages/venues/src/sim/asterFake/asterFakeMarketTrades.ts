import type { SimFillView } from '../simExchange.js'
import type { AsterFakeState } from './asterFakeState.js'

/**
 * Every account's executions on `symbol` at or after `sinceMs`, oldest
 * first: on the engine each fill is a trade against its synthetic book,
 * so together they are the market's trades (volumes, trade counts).
 */
export function marketTrades(
  state: AsterFakeState,
  symbol: string,
  sinceMs: number,
): SimFillView[] {
  const out: SimFillView[] = []
  // account indexes are handed out from 1 upwards
  for (let i = 1; ; i++) {
    const owner = state.exchange.ownerOf(i)
    if (owner === null) break
    for (const f of state.exchange.fills(owner, sinceMs)) {
      if (f.market === symbol) out.push(f)
    }
  }
  return out.sort((a, b) => a.time - b.time || a.tradeId - b.tradeId)
}
