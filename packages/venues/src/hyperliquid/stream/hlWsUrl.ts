/**
 * Hyperliquid's WebSocket address for an API base URL: the same host at
 * `/ws`, `wss` for `https` (docs `websocket`: `wss://api.hyperliquid.xyz/ws`;
 * hyperliquid-python-sdk `websocket_manager.py` builds it the same way).
 * @example hlWsUrl('https://api.hyperliquid.xyz') // 'wss://api.hyperliquid.xyz/ws'
 * @example hlWsUrl('http://127.0.0.1:8080') // 'ws://127.0.0.1:8080/ws'
 * @throws RangeError for a scheme other than http(s) or ws(s)
 */
export function hlWsUrl(httpBaseUrl: string): string {
  const u = new URL(httpBaseUrl)
  if (u.protocol === 'https:') u.protocol = 'wss:'
  else if (u.protocol === 'http:') u.protocol = 'ws:'
  else if (u.protocol !== 'ws:' && u.protocol !== 'wss:') {
    throw new RangeError(`not an http(s) URL: ${httpBaseUrl}`)
  }
  u.pathname = `${u.pathname.replace(/\/+$/, '')}/ws`
  u.search = ''
  u.hash = ''
  return u.toString()
}
