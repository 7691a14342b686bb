/** What a route returns; the adapter writes it to node:http. */
export interface HttpResponse {
  readonly status: number
  /**
   * The JSON value of the body. It stays a value until the adapter writes
   * it, so the request log reads codes and ids from it, not from text.
   */
  readonly body: unknown
  /**
   * The body already serialized (an answer stored for idempotent replay,
   * the cached OpenAPI document) or the bytes of a page or asset (then
   * `headers` names its `content-type`): written as is, never serialized
   * again.
   */
  readonly text?: string | Uint8Array
  readonly headers?: Readonly<Record<string, string>>
}

export function json(status: number, value: unknown): HttpResponse {
  return { status, body: value }
}

/** The bytes of a response body: serialized once, at the edge. */
export function bodyText(res: HttpResponse): string | Uint8Array {
  return res.text ?? JSON.stringify(res.body)
}
