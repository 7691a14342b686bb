import { isObj } from '../../wire/jsonFields.js'

/**
 * The address-based rate limit's refusal ("Too many cumulative requests
 * sent (… > …) for cumulative volume traded $…"): the action was refused
 * whole, and the address may still send one request every 10 s
 * (hyperliquid-docs `for-developers/api/rate-limits`; ccxt maps the words
 * to RateLimitExceeded). It comes as HTTP 200 `{status: "err", response}`;
 * the per-order `{error}` of a one-order answer is read the same way.
 */
const ADDRESS_LIMIT = /too many cumulative requests/i

/**
 * Why an `/exchange` answer says the action was not done and may be sent
 * again, or null. Every other refusal (`{status: "err"}` for a signature,
 * nonce or agent, a per-order error) stays a VenueRejectedError.
 */
export function hlNotActed(json: unknown): string | null {
  const text = isObj(json) ? refusalText(json) : null
  return text !== null && ADDRESS_LIMIT.test(text) ? text : null
}

function refusalText(answer: Record<string, unknown>): string | null {
  if (answer.status === 'err') {
    return typeof answer.response === 'string' ? answer.response : null
  }
  const response = answer.response
  const data = isObj(response) ? response.data : null
  const statuses = isObj(data) ? data.statuses : null
  if (!Array.isArray(statuses) || statuses.length !== 1) return null
  const [status] = statuses
  return isObj(status) && typeof status.error === 'string' ? status.error : null
}
