/** One request parameter: name and its value exactly as it will be sent. */
export type AsterParam = readonly [name: string, value: string]

/**
 * Joins parameters into the `k1=v1&k2=v2` string Aster signs. The same
 * string is the query or form body that is sent: Aster verifies the bytes
 * it received (minus `&signature=…`), so re-encoding after signing would
 * break the signature. Names and values are percent-encoded with
 * `encodeURIComponent` (space as `%20`); parameter order is kept.
 * @param params parameters in the order they are signed and sent
 * @returns the exact string to sign and send
 * @example formEncode([['symbol', 'BTCUSDT'], ['side', 'BUY']]) // 'symbol=BTCUSDT&side=BUY'
 */
export function formEncode(params: readonly AsterParam[]): string {
  return params
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&')
}
