import type { IncomingMessage } from 'node:http'
import { AppError, ValidationError } from '@dn/core'

/** Largest JSON body accepted on any route, in bytes. */
const MAX_BODY_BYTES = 16_384

class PayloadTooLargeError extends AppError {
  override name = 'PayloadTooLargeError'
  constructor() {
    super('payload_too_large', `JSON body exceeds ${MAX_BODY_BYTES} bytes`)
  }
}

class UnsupportedMediaTypeError extends AppError {
  override name = 'UnsupportedMediaTypeError'
  constructor() {
    super('unsupported_media_type', 'Content-Type must be application/json')
  }
}

/** The client closed the connection before its body arrived. */
export class RequestAbortedError extends AppError {
  override name = 'RequestAbortedError'
  constructor(options?: { cause?: unknown }) {
    super('request_aborted', 'the request body was cut off', options)
  }
}

const JSON_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i

/**
 * Reads a JSON body: checks Content-Type, refuses more than 16 KiB (early
 * from Content-Length, or while streaming), and parses.
 */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!JSON_TYPE.test(req.headers['content-type'] ?? '')) {
    throw new UnsupportedMediaTypeError()
  }
  const declared = Number(req.headers['content-length'] ?? '0')
  if (declared > MAX_BODY_BYTES) throw new PayloadTooLargeError()
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length
      if (size > MAX_BODY_BYTES) throw new PayloadTooLargeError()
      chunks.push(chunk as Buffer)
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    // the client went away mid-upload: nobody to answer, nothing to log
    // but a debug line (errorResponse)
    throw new RequestAbortedError({ cause: err })
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return JSON.parse(text)
  } catch {
    throw new ValidationError(
      'request body is not valid JSON',
      [],
      'invalid_json',
    )
  }
}

/** Drains an unread body so the connection can be reused. */
export function discardBody(req: IncomingMessage): void {
  if (!req.readableEnded) req.resume()
}
