import { intField, isObj, type Json } from '../adapter/lighterWireValue.js'

/**
 * One `account_all` frame as the account stream uses it: a snapshot
 * (`subscribed/account_all`, every position) or an update
 * (`update/account_all`, only the markets that changed), with the
 * account it is about and its position rows keyed by market id; or the
 * venue's refusal of a subscription (`{"type":"error","code",
 * "channel"?,"message"}`).
 *
 * `positions` is a map `{"<market id>": Position}` (apidocs
 * `websocket-reference` "Account All"; NautilusTrader's
 * `account_all_positions` fixture has the same shape). The account comes
 * from `channel` (`account_all:<n>`), else from `account`.
 */
type LighterAccountFrame =
  | {
      readonly kind: 'snapshot' | 'update'
      readonly account: number
      readonly positions: ReadonlyMap<number, Json>
    }
  | {
      readonly kind: 'refused'
      /** null when the error names no `account_all` channel */
      readonly account: number | null
      readonly code: number | null
    }

const KINDS: Record<string, 'snapshot' | 'update'> = {
  'subscribed/account_all': 'snapshot',
  'update/account_all': 'update',
}

/** The frame as above, or null when it is no account_all frame. */
export function parseLighterAccountFrame(
  frame: unknown,
): LighterAccountFrame | null {
  if (!isObj(frame)) return null
  if (frame.type === 'error') {
    return {
      kind: 'refused',
      account: accountOfChannel(frame.channel),
      code: intField(frame.code),
    }
  }
  const kind = typeof frame.type === 'string' ? KINDS[frame.type] : undefined
  if (kind === undefined) return null
  const account = accountOfChannel(frame.channel) ?? intField(frame.account)
  if (account === null) return null
  const positions = new Map<number, Json>()
  if (isObj(frame.positions)) {
    for (const [key, row] of Object.entries(frame.positions)) {
      if (!isObj(row)) continue
      const id = intField(row.market_id ?? key)
      if (id !== null) positions.set(id, row)
    }
  }
  return { kind, account, positions }
}

/** `account_all:12` or `account_all/12` → 12 */
function accountOfChannel(channel: unknown): number | null {
  if (typeof channel !== 'string') return null
  const m = /^account_all[:/](\d{1,16})$/.exec(channel)
  return m ? Number(m[1]) : null
}
