import {
  lighterFakeAccountSummary,
  lighterFakeDetailedAccount,
} from './lighterFakeAccountJson.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'
import { int, invalidParam, optInt, type Query } from './lighterFakeQuery.js'
import {
  accountIndexOf,
  keyId,
  type LighterFakeState,
} from './lighterFakeState.js'

/**
 * The public account reads: `accountsByL1Address`, `account`, `apikeys`,
 * `nextNonce`.
 *
 * @module
 */

const OK = { code: 200 }

const notFound = () =>
  new LighterFakeError(FAKE_CODES.accountNotFound, 'account not found')

export function accountsByL1Address(state: LighterFakeState, q: Query) {
  const owner = (q.get('l1_address') ?? '').toLowerCase()
  const index = accountIndexOf(state, owner)
  if (index === null) throw notFound()
  return {
    ...OK,
    l1_address: owner,
    sub_accounts: [lighterFakeAccountSummary(state, index, owner)],
  }
}

/** `account?by=index|l1_address&value=…` */
export function account(state: LighterFakeState, q: Query) {
  const by = q.get('by')
  let index: number | null
  let owner: string | null
  if (by === 'l1_address') {
    owner = (q.get('value') ?? '').toLowerCase()
    index = accountIndexOf(state, owner)
  } else if (by === 'index') {
    index = int(q, 'value')
    owner = state.exchange.ownerOf(index)
  } else {
    throw invalidParam('by')
  }
  if (index === null || owner === null) throw notFound()
  return {
    ...OK,
    total: 1,
    accounts: [lighterFakeDetailedAccount(state, index, owner)],
  }
}

/**
 * `apikeys`: the account's registered keys, one slot or all (255, the
 * default). `transaction_time` is 0: the fake does not keep when a key
 * was registered.
 */
export function apiKeys(state: LighterFakeState, q: Query) {
  const account = int(q, 'account_index')
  const apiKey = optInt(q, 'api_key_index', 255)
  const api_keys = []
  for (let k = 0; k <= 254; k++) {
    if (apiKey !== 255 && k !== apiKey) continue
    const pk = state.keys.get(keyId(account, k))
    if (pk === undefined) continue
    api_keys.push({
      account_index: account,
      api_key_index: k,
      nonce: state.nonces.get(keyId(account, k)) ?? 0,
      public_key: pk,
      transaction_time: 0,
    })
  }
  return { ...OK, api_keys }
}

export function nextNonce(state: LighterFakeState, q: Query) {
  const id = keyId(int(q, 'account_index'), int(q, 'api_key_index'))
  return { ...OK, nonce: state.nonces.get(id) ?? 0 }
}
