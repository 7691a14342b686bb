import { DnError } from './DnError.js'

const SNIPPET_CHARS = 200

/**
 * Something answered, but not with the service's JSON: a proxy's HTML page,
 * a truncated body, another program on the port.
 */
export class DnProtocolError extends DnError {
  override name = 'DnProtocolError'
  readonly code = 'protocol_error'
  readonly status: number
  readonly contentType: string | null
  /** the start of the body, to recognise who answered */
  readonly bodySnippet: string

  constructor(
    p: { status: number; contentType: string | null; body: string },
    cause?: unknown,
  ) {
    const snippet = p.body.slice(0, SNIPPET_CHARS)
    super(
      `HTTP ${p.status} answered ${p.contentType ?? 'no content type'}, not JSON: ${JSON.stringify(snippet.slice(0, 60))}`,
      { cause },
    )
    this.status = p.status
    this.contentType = p.contentType
    this.bodySnippet = snippet
  }
}
