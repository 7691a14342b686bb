import { accountInformation } from './asterFakeAccount.js'
import type { AsterFakeState } from './asterFakeState.js'

/**
 * `GET /fapi/v3/balance` (USER_DATA, weight 5): one USDT row (the engine
 * keeps one collateral), from the same totals as Account Information v3,
 * shaped as the futures v3 doc's "Futures Account Balance v3". An account
 * the faucet never funded answers a zero row.
 */
export function balance(state: AsterFakeState, user: string) {
  const a = accountInformation(state, user)
  return [
    {
      accountAlias: `fake${user.slice(2, 8)}`,
      asset: 'USDT',
      balance: a.totalWalletBalance,
      crossWalletBalance: a.totalCrossWalletBalance,
      crossUnPnl: a.totalCrossUnPnl,
      availableBalance: a.availableBalance,
      maxWithdrawAmount: a.maxWithdrawAmount,
      marginAvailable: true,
      updateTime: state.now(),
    },
  ]
}
