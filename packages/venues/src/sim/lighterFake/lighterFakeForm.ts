import type { IncomingMessage } from 'node:http'
import { readBody } from '../loopbackHttp.js'
import { FAKE_CODES, LighterFakeError } from './lighterFakeError.js'

const MAX_BODY = 256 * 1024

const bad = (what: string) =>
  new LighterFakeError(FAKE_CODES.invalidTxInfo, `invalid tx info: ${what}`)

/**
 * The text fields of a `multipart/form-data` body (RFC 7578): parts
 * between `--boundary` lines, each a header block naming the field
 * (`Content-Disposition: form-data; name="…"`), a blank line and the
 * value. Only what `sendTx` needs: text fields, UTF-8; a part's own
 * content type and file names are ignored.
 *
 * @throws {LighterFakeError} 21501 when the body is not such a form.
 */
export function parseMultipartForm(
  body: string,
  boundary: string,
): URLSearchParams {
  const delimiter = `--${boundary}`
  const form = new URLSearchParams()
  const chunks = body.split(delimiter)
  // chunks[0] is the preamble; the last starts with `--` (the close)
  if (chunks.length < 2 || !chunks.at(-1)?.startsWith('--')) {
    throw bad('multipart body without its closing boundary')
  }
  for (const chunk of chunks.slice(1, -1)) {
    const part = chunk.replace(/^\r\n/, '').replace(/\r\n$/, '')
    const split = part.indexOf('\r\n\r\n')
    if (split < 0) throw bad('multipart part without headers')
    const headers = part.slice(0, split)
    const name = /^content-disposition:\s*form-data;.*?\bname="([^"]*)"/im.exec(
      headers,
    )?.[1]
    if (name === undefined) throw bad('multipart part without a name')
    form.append(name, part.slice(split + 4))
  }
  return form
}

/** The `boundary` parameter of a multipart content type, unquoted. */
function boundaryOf(contentType: string): string {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  const boundary = m?.[1] ?? m?.[2]
  if (!boundary) throw bad('multipart content type without a boundary')
  return boundary
}

/**
 * A POSTed form: `multipart/form-data`, what the spec declares for
 * `sendTx` and `sendTxBatch` (and what the official clients send), or
 * `application/x-www-form-urlencoded`, which the venue also takes
 * (lighter-go and dn send it); any other body is read as the latter.
 */
export async function readLighterForm(
  req: IncomingMessage,
): Promise<URLSearchParams> {
  const body = await readBody(req, MAX_BODY, () => bad('body too large'))
  const type = req.headers['content-type'] ?? ''
  if (/^multipart\/form-data/i.test(type)) {
    return parseMultipartForm(body, boundaryOf(type))
  }
  return new URLSearchParams(body)
}
