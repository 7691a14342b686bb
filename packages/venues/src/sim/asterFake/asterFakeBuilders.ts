import { getAddress, isAddress } from 'viem'
import { param } from './asterFakeAuth.js'
import { AsterFakeError, invalidParam, mandatory } from './asterFakeError.js'
import type { AsterFakeState } from './asterFakeState.js'

type Pairs = readonly (readonly [string, string])[]

const ok = { code: 200, msg: 'success' }
const DECIMAL = /^\d+(\.\d+)?$/

const key = (user: string, builder: string) =>
  `${user}|${builder.toLowerCase()}`

function builderParam(pairs: Pairs): string {
  const b = param(pairs, 'builder')
  if (!b) throw mandatory('builder')
  if (!isAddress(b, { strict: false })) throw invalidParam('builder')
  return b
}

function feeParam(pairs: Pairs): string {
  const f = param(pairs, 'maxFeeRate')
  if (!f) throw mandatory('maxFeeRate')
  if (!DECIMAL.test(f)) throw invalidParam('maxFeeRate')
  return f
}

/**
 * Records `user`'s approval of `builder` with its fee cap, as
 * `approveBuilder` (or an `approveAgent` carrying the builder fields)
 * does; a second approval replaces the first.
 */
export function recordBuilder(
  state: AsterFakeState,
  user: string,
  builder: string,
  maxFeeRate: string,
  builderName: string,
): void {
  state.builders.set(key(user, builder), maxFeeRate)
  state.builderInfo.set(key(user, builder), {
    builderAddress: builder,
    maxFeeRate,
    builderName,
  })
}

/**
 * `GET /fapi/v3/builder` (USER_DATA): the builders `user` approved, as
 * the asterCode endpoint table shows them (ross-32/aster-api-docs
 * `endpoints.en.md`; ccxt's sign-in compares `builderAddress` verbatim
 * with its own and approves it when absent). `maxFeeRate` is a string,
 * as ccxt's comment of a live answer shows it.
 */
export function listBuilders(state: AsterFakeState, user: string) {
  const prefix = `${user}|`
  return [...state.builderInfo]
    .filter(([k]) => k.startsWith(prefix))
    .map(([, b]) => ({
      userAddress: getAddress(user),
      builderAddress: b.builderAddress,
      maxFeeRate: b.maxFeeRate,
      builderName: b.builderName,
    }))
}

/** `POST /fapi/v3/approveBuilder` after the main-wallet signature checked out. */
export function approveBuilder(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const builder = builderParam(pairs)
  const fee = feeParam(pairs)
  recordBuilder(state, user, builder, fee, param(pairs, 'builderName') ?? '')
  return ok
}

const notApproved = () =>
  new AsterFakeError(-1130, "Data sent for parameter 'builder' is not valid.")

/** `POST /fapi/v3/updateBuilder`: a new cap for an approved builder. */
export function updateBuilder(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const builder = builderParam(pairs)
  const fee = feeParam(pairs)
  const was = state.builderInfo.get(key(user, builder))
  if (!was) throw notApproved()
  recordBuilder(state, user, was.builderAddress, fee, was.builderName)
  return ok
}

/** `DELETE /fapi/v3/builder`: revokes an approval. */
export function deleteBuilder(
  state: AsterFakeState,
  user: string,
  pairs: Pairs,
) {
  const builder = builderParam(pairs)
  if (!state.builderInfo.has(key(user, builder))) throw notApproved()
  state.builders.delete(key(user, builder))
  state.builderInfo.delete(key(user, builder))
  return ok
}
