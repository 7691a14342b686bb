import type { ServerResponse } from 'node:http'

/**
 * Answers a request over Hyperliquid's per-IP weight budget the way the
 * venue does: HTTP 429 with the JSON body `null` and no Retry-After.
 *
 * Sources: the docs' rate-limits page names no over-budget answer;
 * nktkas/hyperliquid@04d08962f0e68b856523e64b205176e05955b7a3
 * src/transport/http/mod.ts builds its error message as
 * "<status> <statusText> - <body>", and public code calling
 * api.hyperliquid.xyz through it logs "429 Too Many Requests - null"
 * (body `null`); https://github.com/nomeida/hyperliquid/issues/55 shows a
 * client reading `.code` of a null error body. [unverified] the
 * content-type (`application/json` assumed) and the absence of
 * Retry-After (none is documented or seen in those reports).
 */
export function sendHlRateLimited(res: ServerResponse): void {
  res.writeHead(429, { 'content-type': 'application/json' })
  res.end('null')
}
