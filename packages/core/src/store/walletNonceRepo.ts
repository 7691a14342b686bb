import type { WalletNonceRepo } from '../ports/store.js'
import type { RepoScope } from './repoScope.js'
import { storedMicros } from './rowMappers.js'

/**
 * Used wallet-signature nonces. The (owner, nonce) primary key makes `use`
 * true for exactly one caller, however many race.
 */
export function walletNonceRepo(scope: RepoScope): WalletNonceRepo {
  return {
    async use(owner, nonce, action, at) {
      const result = await scope
        .db()
        .insertInto('wallet_nonces')
        .values({ owner, nonce, action, used_at: storedMicros(at) })
        .onConflict((oc) => oc.columns(['owner', 'nonce']).doNothing())
        .executeTakeFirst()
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
    },
  }
}
