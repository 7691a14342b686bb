import { isObj, type Json } from './lighterWireValue.js'

/** `account_type` of a standard account: it trades without fees. */
const STANDARD = 0

/**
 * What the trading fees of an account's orders are, from the
 * `account_type` of its `account?by=index` answer: '0' for a standard
 * account (Lighter charges it no fees), null for any other tier (its
 * fees depend on the market and tier, which no order answer states);
 * undefined when the answer does not say.
 */
export function lighterAccountFees(raw: Json): '0' | null | undefined {
  const account = Array.isArray(raw.accounts) ? raw.accounts[0] : undefined
  if (!isObj(account) || typeof account.account_type !== 'number') {
    return undefined
  }
  return account.account_type === STANDARD ? '0' : null
}
