/**
 * A stored command outcome under an Idempotency-Key. `scope` is
 * `owner:<address>` for key-authenticated routes and `binding:<id>` for the
 * binding submit route, so keys never collide across wallets.
 */
export interface IdempotencyRecord {
  readonly scope: string
  readonly key: string
  readonly method: string
  readonly path: string
  /** hex SHA-256 of method, path and canonical JSON body */
  readonly fingerprint: string
  readonly status: number
  readonly body: string
  readonly createdAt: string
}
