import {
  type RequestPriority,
  VenueRejectedError,
  VenueUnavailableError,
} from '@dn/core'
import type { LighterTransport } from '../adapter/lighterTransport.js'
import { intField, isObj } from '../adapter/lighterWireValue.js'

/**
 * The venue reads binding needs, over the adapter's transport. A refusal
 * of a read means Lighter could not answer the question, so it becomes
 * VenueUnavailableError unless the caller handles the code.
 *
 * @module
 */

/**
 * A user waits on binding: its reads go before routine monitoring. Those
 * an HTTP caller waits on (prepare's) are `interactive`.
 */
export const BINDING_PRIORITY = 'urgent'

/** Runs a read; refusals other than `accepted` become unavailability. */
async function lighterRead<T>(
  what: string,
  read: () => Promise<T>,
): Promise<T> {
  try {
    return await read()
  } catch (err) {
    if (err instanceof VenueRejectedError) {
      throw new VenueUnavailableError(`lighter ${what}: ${err.reason}`, {
        cause: err,
      })
    }
    throw err
  }
}

/** Public keys registered per slot (80 lowercase hex, no `0x`). */
export async function registeredKeys(
  t: LighterTransport,
  accountIndex: number,
  apiKeyIndex = 255,
  priority: RequestPriority = BINDING_PRIORITY,
): Promise<Map<number, string>> {
  const raw = await lighterRead('apikeys', () =>
    t.get(
      'apikeys',
      { account_index: accountIndex, api_key_index: apiKeyIndex },
      undefined,
      priority,
    ),
  )
  const out = new Map<number, string>()
  for (const k of Array.isArray(raw.api_keys) ? raw.api_keys : []) {
    const slot = isObj(k) ? intField(k.api_key_index) : null
    const pk =
      isObj(k) && typeof k.public_key === 'string'
        ? k.public_key.replace(/^0x/, '').toLowerCase()
        : ''
    if (slot !== null && /^[0-9a-f]{80}$/.test(pk) && !/^0+$/.test(pk)) {
      out.set(slot, pk)
    }
  }
  return out
}

/** `nextNonce` of a slot. */
export async function nextNonce(
  t: LighterTransport,
  accountIndex: number,
  apiKeyIndex: number,
  priority: RequestPriority = BINDING_PRIORITY,
): Promise<number> {
  const raw = await lighterRead('nextNonce', () =>
    t.get(
      'nextNonce',
      { account_index: accountIndex, api_key_index: apiKeyIndex },
      undefined,
      priority,
    ),
  )
  const nonce = intField(raw.nonce)
  if (nonce === null || nonce < 0) {
    throw new VenueUnavailableError('lighter nextNonce: no nonce')
  }
  return nonce
}

/** Integrators the account approved whose approval has not expired. */
export async function approvedIntegrators(
  t: LighterTransport,
  accountIndex: number,
  nowMs: number,
): Promise<Set<number>> {
  const raw = await lighterRead('account', () =>
    t.get(
      'account',
      { by: 'index', value: accountIndex },
      undefined,
      BINDING_PRIORITY,
    ),
  )
  const account = Array.isArray(raw.accounts) ? raw.accounts[0] : undefined
  const out = new Set<number>()
  const list = isObj(account) ? account.approved_integrators : undefined
  for (const a of Array.isArray(list) ? list : []) {
    if (!isObj(a)) continue
    const index = intField(a.account_index)
    const expiry = intField(a.approval_expiry)
    if (index !== null && expiry !== null && expiry > nowMs) out.add(index)
  }
  return out
}
