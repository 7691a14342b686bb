/** What a route returns; the adapter writes it to node:http. */
export interface HttpResponse {
  readonly status: number
  /** serialized JSON */
  readonly body: string
  readonly headers?: Readonly<Record<string, string>>
}

export function json(status: number, value: unknown): HttpResponse {
  return { status, body: JSON.stringify(value) }
}
