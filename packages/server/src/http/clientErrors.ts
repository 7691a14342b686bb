import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { type DnErrorCode, ERROR_CODES } from '@dn/core'
import type { Logger } from '../logger.js'

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
}

interface RawError {
  readonly code: DnErrorCode
  readonly error: string
}

/**
 * What Node's HTTP parser refused, as our `{error, code}` answer. Node
 * answers these itself with a bare 400/431 and no body.
 */
function classify(err: NodeJS.ErrnoException): RawError {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        code: 'headers_too_large',
        error: 'request headers exceed 16 KB; send fewer or shorter headers',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 'request_timeout',
        error: 'the request was not received in time; send it again',
      }
    default:
      return {
        code: 'bad_request',
        error: `malformed HTTP request (${err.code ?? 'parse error'}): check Content-Length, Transfer-Encoding and header bytes`,
      }
  }
}

/** Answers `e` as JSON on a raw socket and closes the connection. */
function answer(socket: Duplex, e: RawError): void {
  const body = JSON.stringify({ error: e.error, code: e.code })
  const status = ERROR_CODES[e.code].status
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\n` +
      'content-type: application/json\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      'connection: close\r\n\r\n' +
      body,
  )
}

/**
 * Malformed HTTP (bad framing, NUL in a header, headers over 16 KB, a
 * timed-out request) is answered `{error, code}` JSON and the connection
 * closed; `CONNECT` (which Node otherwise drops unanswered) is 405. A
 * client that went away is only noted at debug level.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // a request already dispatched (its body was malformed): answerable
    // while its response has sent nothing
    const res = (socket as { _httpMessage?: { headersSent?: boolean } | null })
      ._httpMessage
    if (err.code === 'ECONNRESET' || !socket.writable || res?.headersSent) {
      logger.debug?.('client connection ended mid-request', { code: err.code })
      socket.destroy()
      return
    }
    answer(socket, classify(err))
  })
  server.on('connect', (_req, socket: Duplex) => {
    answer(socket, {
      code: 'method_not_allowed',
      error: 'CONNECT is not served: this is an HTTP API, not a proxy',
    })
  })
}
