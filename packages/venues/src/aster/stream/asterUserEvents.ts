/**
 * The events of an Aster user data stream (`/ws/<listenKey>`) the service
 * reads, normalized.
 *
 * Source: asterdex/api-docs @ 265e024 (2026-06-30)
 * `V3(Recommended)/EN/aster-finance-futures-api-v3.md`, "User Data
 * Streams": "Event: Balance and Position Update" (`ACCOUNT_UPDATE`: `E`
 * event time, `T` transaction time, `a.m` reason, `a.B[]` balances `{a,
 * wb, cw, bc}`, `a.P[]` positions `{s, pa, ep, cr, up, mt, iw, ps}`);
 * "Event: User Data Stream Expired" (`{e: "listenKeyExpired", E}`);
 * payloads "not guaranteed to be in order during heavy periods; make
 * sure to order your updates using E". The doc's sample writes `mt` as
 * `"isolated"`; `"cross"` for a crossed position is [unverified]
 * (Binance's wording, which Aster's API copies).
 *
 * @module
 */
import { decField, intField, isObj } from '../../wire/jsonFields.js'

/** One entry of `ACCOUNT_UPDATE.a.P`: the position's state after the update. */
export interface AsterStreamPosition {
  readonly symbol: string
  /** signed size (`pa`); "0" when the position was closed */
  readonly size: string
  /** `ep` */
  readonly entryPrice: string
  /** `up`, when readable */
  readonly unrealizedPnl: string | null
  /** `mt`, lowercased */
  readonly marginType: string
  /** `ps`: BOTH in One-way Mode */
  readonly positionSide: string
}

export type AsterUserEvent =
  | {
      readonly kind: 'account'
      /** `E`, Unix ms */
      readonly time: number
      /** `a.m`, e.g. ORDER, FUNDING_FEE */
      readonly reason: string
      /** how many balances `a.B` lists */
      readonly balances: number
      readonly positions: readonly AsterStreamPosition[]
    }
  | { readonly kind: 'expired'; readonly time: number }
  | { readonly kind: 'other'; readonly event: string }

/**
 * The event one frame carries, raw or wrapped as `{stream, data}`; null
 * for a frame that is not one (an answer to a request, bad JSON, an
 * ACCOUNT_UPDATE with an unreadable position). Never throws.
 */
export function readAsterUserEvent(text: string): AsterUserEvent | null {
  let msg: unknown
  try {
    msg = JSON.parse(text)
  } catch {
    return null
  }
  const ev = isObj(msg) && isObj(msg.data) ? msg.data : msg
  if (!isObj(ev) || typeof ev.e !== 'string') return null
  const time = intField(ev.E) ?? 0
  if (ev.e === 'listenKeyExpired') return { kind: 'expired', time }
  if (ev.e !== 'ACCOUNT_UPDATE') return { kind: 'other', event: ev.e }
  const a = ev.a
  if (!isObj(a)) return null
  const rows = Array.isArray(a.P) ? a.P : []
  const positions: AsterStreamPosition[] = []
  for (const p of rows) {
    const read = readPosition(p)
    // a position the stream cannot read must not be served as unchanged
    if (!read) return null
    positions.push(read)
  }
  return {
    kind: 'account',
    time,
    reason: typeof a.m === 'string' ? a.m : '',
    balances: Array.isArray(a.B) ? a.B.length : 0,
    positions,
  }
}

function readPosition(p: unknown): AsterStreamPosition | null {
  if (!isObj(p) || typeof p.s !== 'string' || p.s === '') return null
  const size = decField(p.pa)
  const entryPrice = decField(p.ep)
  if (size === null || entryPrice === null) return null
  return {
    symbol: p.s.toUpperCase(),
    size,
    entryPrice,
    unrealizedPnl: decField(p.up),
    marginType: typeof p.mt === 'string' ? p.mt.toLowerCase() : '',
    positionSide: typeof p.ps === 'string' ? p.ps : 'BOTH',
  }
}
