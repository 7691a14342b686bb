import { requireLighterAuthToken } from './lighterFakeAuthToken.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { handleRead } from './lighterFakeReads.js'
import { fixed, type LighterFakeState } from './lighterFakeState.js'

/**
 * The fake's `account_all/{account}` channel, in the frames
 * `lighter/stream/createLighterAccountStreams.ts` documents with their
 * sources: `subscribed/account_all` with every position on subscribe,
 * then `update/account_all` with only the markets whose row changed
 * (fills, funding, liquidation, mark moves), a closed position sent once
 * as a zero row. Rows are the REST `account` read's, so the stream and
 * `account?by=index` always agree. Volumes, trades, funding histories
 * and assets are sent empty.
 *
 * Auth: the docs' Account All subscription has no `auth`, so by default
 * none is needed (`'optional'`); `'required'` plays NautilusTrader's
 * reading that it is. A token that is sent must be a live one of the
 * channel's account (**[unverified]** that the venue refuses a bad token
 * on a channel that needs none: the stricter reading).
 */
export type LighterFakeAccountAuth = 'optional' | 'required'

/** One connection's account subscriptions: the last row sent per market. */
export type LighterFakeAccountSubs = Map<number, Map<number, string>>

interface LighterFakeAccountChannel {
  /**
   * The `subscribed/account_all` frame, after recording what it sent.
   * @throws {LighterFakeError} unknown account (30012) or bad auth (20013)
   */
  subscribe(
    subs: LighterFakeAccountSubs,
    account: number,
    auth: unknown,
  ): string
  /** `update/account_all` frames of the accounts whose rows changed */
  updates(subs: LighterFakeAccountSubs): string[]
}

export function createLighterFakeAccountChannel(
  state: LighterFakeState,
  auth: LighterFakeAccountAuth,
): LighterFakeAccountChannel {
  /** the account's position rows by market id, as `account` answers */
  function rows(account: number): Map<number, Record<string, unknown>> {
    const q = new URLSearchParams({ by: 'index', value: String(account) })
    const answer = handleRead(state, 'account', q, undefined) as {
      accounts: { positions: Record<string, unknown>[] }[]
    }
    const out = new Map<number, Record<string, unknown>>()
    for (const r of answer.accounts[0]?.positions ?? []) {
      out.set(r.market_id as number, r)
    }
    return out
  }

  function checkAuth(account: number, token: unknown) {
    if (token === undefined || token === null) {
      if (auth === 'optional') return
      throw new LighterFakeError(
        FAKE_CODES.invalidAuth,
        'auth field is required',
      )
    }
    if (typeof token !== 'string') {
      throw new LighterFakeError(FAKE_CODES.invalidAuth, 'invalid auth')
    }
    requireLighterAuthToken(state, account, token)
  }

  const frame = (
    kind: 'subscribed' | 'update',
    account: number,
    positions: Map<number, unknown>,
  ) =>
    JSON.stringify({
      account,
      channel: `account_all:${account}`,
      positions: Object.fromEntries(
        [...positions].map(([id, r]) => [String(id), r]),
      ),
      trades: {},
      funding_histories: {},
      ...(kind === 'subscribed'
        ? {
            assets: {},
            shares: [],
            daily_trades_count: 0,
            daily_volume: 0,
            weekly_trades_count: 0,
            weekly_volume: 0,
            monthly_trades_count: 0,
            monthly_volume: 0,
            total_trades_count: 0,
            total_volume: 0,
          }
        : {}),
      type: `${kind}/account_all`,
    })

  return {
    subscribe(subs, account, token) {
      let now: Map<number, Record<string, unknown>>
      try {
        now = rows(account)
      } catch (e) {
        if (!(e instanceof LighterFakeError)) throw e
        throw new LighterFakeError(30012, 'failed to subscribe')
      }
      checkAuth(account, token)
      const sent = new Map<number, string>()
      for (const [id, r] of now) sent.set(id, JSON.stringify(r))
      subs.set(account, sent)
      return frame('subscribed', account, now)
    },
    updates(subs) {
      const out: string[] = []
      for (const [account, sent] of subs) {
        let now: Map<number, Record<string, unknown>>
        try {
          now = rows(account)
        } catch {
          continue
        }
        const changed = new Map<number, unknown>()
        for (const [id, r] of now) {
          const text = JSON.stringify(r)
          if (sent.get(id) !== text) {
            changed.set(id, r)
            sent.set(id, text)
          }
        }
        for (const id of sent.keys()) {
          if (now.has(id)) continue
          changed.set(id, flat(state, id))
          sent.delete(id)
        }
        if (changed.size > 0) out.push(frame('update', account, changed))
      }
      return out
    },
  }
}

/** a closed position's row: zero size, as the venue reports it [unverified] */
function flat(state: LighterFakeState, marketId: number) {
  const m = state.markets.find((x) => x.marketId === marketId)
  return {
    market_id: marketId,
    symbol: m?.symbol ?? '',
    initial_margin_fraction: '0.00',
    sign: 1,
    position: fixed('0', m?.sizeDecimals ?? 0),
    avg_entry_price: fixed('0', m?.priceDecimals ?? 0),
    position_value: '0.000000',
    unrealized_pnl: '0.000000',
    realized_pnl: '0.000000',
    liquidation_price: '0',
    margin_mode: 0,
    allocated_margin: '0.000000',
  }
}
