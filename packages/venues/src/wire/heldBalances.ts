import type { Clock, VenueBalance } from '@dn/core'

/**
 * The balance each account's last positions read carried, where the venue
 * answers both in one read (Hyperliquid `clearinghouseState`, Lighter
 * `account`): a balances read soon after a positions read costs nothing.
 * One entry per account, replaced by each read.
 */
interface HeldBalances {
  hold(account: string, balance: VenueBalance): void
  /** the held balance when it is at most `maxAgeMs` (> 0) old */
  fresh(account: string, maxAgeMs: number): VenueBalance | undefined
}

export function createHeldBalances(clock: Clock): HeldBalances {
  const held = new Map<string, VenueBalance>()
  return {
    hold(account, balance) {
      const last = held.get(account)
      if (last && last.at > balance.at) return
      held.set(account, balance)
    },
    fresh(account, maxAgeMs) {
      // 0 (the default): a new read, even within the millisecond
      if (!(maxAgeMs > 0)) return undefined
      const last = held.get(account)
      return last && clock.now() - last.at <= maxAgeMs ? last : undefined
    },
  }
}
