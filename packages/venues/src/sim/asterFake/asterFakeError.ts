/**
 * An error answer of the fake, as Aster sends it: HTTP status plus
 * `{"code": <negative int>, "msg": "…"}`. Thrown by handlers, answered by
 * the server.
 */
export class AsterFakeError extends Error {
  override name = 'AsterFakeError'
  readonly status: number
  readonly code: number
  constructor(code: number, msg: string, status = 400) {
    super(msg)
    this.code = code
    this.status = status
  }
}

/** `-1102` for a missing or malformed mandatory parameter. */
export function mandatory(name: string): AsterFakeError {
  return new AsterFakeError(
    -1102,
    `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`,
  )
}

/** `-1130` for a parameter whose value is not valid. */
export function invalidParam(name: string): AsterFakeError {
  return new AsterFakeError(
    -1130,
    `Data sent for parameter '${name}' is not valid.`,
  )
}
