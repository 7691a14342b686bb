import type { ServerResponse } from 'node:http'
import { sendJson } from '../loopbackHttp.js'

/**
 * The body of Lighter's rate-limit refusal: code 23000 "Too Many
 * Requests!" (ccxt/ccxt@480f0a7d4c5f4d11bb8b32f9f546fa7751605ca1
 * ts/src/lighter.ts maps 23000..23003 to RateLimitExceeded;
 * api-evangelist/lighter@74746a2a2103542b4c01df5deac36e57abad8c67
 * rate-limits/lighter-rate-limits.yml lists 23000 "Too Many Requests!",
 * 23001 subscriptions, 23002 different accounts, 23003 connections; the
 * last three are WebSocket limits).
 */
const LIGHTER_RATE_LIMITED = Object.freeze({
  code: 23000,
  message: 'Too Many Requests!',
})

/**
 * Answers an over-budget request: HTTP 429 with that body and no
 * Retry-After. [unverified] the status: the docs name only the code;
 * public clients of the live API handle "HTTP 429 with envelope code
 * 23000" and report no Retry-After header; a per-address refusal was
 * reported worded "L1Address ratelimit reached 0x…", kept here as the
 * documented text.
 */
export function sendLighterRateLimited(res: ServerResponse): void {
  sendJson(res, 429, LIGHTER_RATE_LIMITED)
}
