import { createHash } from 'node:crypto'
import type { Handler } from '../router.js'

interface StaticHandlerOptions {
  /** the bytes, read on the first request and then kept */
  readonly load: () => Promise<Uint8Array> | Uint8Array
  readonly contentType: string
  /** @default 'no-cache' (always revalidated: a 304 costs no body) */
  readonly cacheControl?: string
  /** more response headers (a content-security-policy, ...) */
  readonly headers?: Readonly<Record<string, string>>
}

interface Loaded {
  readonly bytes: Uint8Array
  readonly etag: string
}

/** A strong ETag: the first 128 bits of the SHA-256 of the bytes. */
function etagOf(bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('base64url')
  return `"${hash.slice(0, 22)}"`
}

/** True when `If-None-Match` names the current ETag (or is `*`). */
function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false
  return ifNoneMatch
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag)
}

/**
 * A GET handler answering fixed bytes (a page or an asset): 200 with the
 * body and its ETag, or 304 without a body when `If-None-Match` matches.
 * The bytes are loaded once, on first use; a failed load is tried again on
 * the next request.
 */
export function staticHandler(o: StaticHandlerOptions): Handler {
  let loading: Promise<Loaded> | undefined
  const load = (): Promise<Loaded> => {
    loading ??= Promise.resolve()
      .then(o.load)
      .then((bytes) => ({ bytes, etag: etagOf(bytes) }))
    loading.catch(() => {
      loading = undefined
    })
    return loading
  }
  return async (ctx) => {
    const { bytes, etag } = await load()
    const headers = {
      'content-type': o.contentType,
      'cache-control': o.cacheControl ?? 'no-cache',
      'x-content-type-options': 'nosniff',
      ...o.headers,
      etag,
    }
    if (notModified(ctx.req.headers['if-none-match'], etag)) {
      return { status: 304, body: undefined, text: '', headers }
    }
    return { status: 200, body: undefined, text: bytes, headers }
  }
}
