import { describe, expect, test } from 'vitest'
import { LighterFakeError } from './lighterFakeError.js'
import { parseMultipartForm } from './lighterFakeForm.js'

/** The multipart bodies real clients send, parsed field by field. */
describe('parseMultipartForm', () => {
  test('the body fetch builds from a FormData', async () => {
    const form = new FormData()
    form.append('tx_type', '14')
    form.append('tx_info', '{"A":1,\r\n"B":"x--y"}')
    const req = new Request('http://x/', { method: 'POST', body: form })
    const type = req.headers.get('content-type') ?? ''
    const boundary = /boundary=(.+)$/.exec(type)?.[1] ?? ''
    const parsed = parseMultipartForm(await req.text(), boundary)
    expect(parsed.get('tx_type')).toBe('14')
    expect(parsed.get('tx_info')).toBe('{"A":1,\r\n"B":"x--y"}')
  })

  test('a hand-written body with a part content type and an empty value', () => {
    const body = [
      'preamble',
      '--b0',
      'Content-Disposition: form-data; name="tx_types"',
      'Content-Type: text/plain',
      '',
      '[14,15]',
      '--b0',
      'content-disposition: form-data; name="empty"',
      '',
      '',
      '--b0--',
      '',
    ].join('\r\n')
    const parsed = parseMultipartForm(body, 'b0')
    expect([...parsed]).toEqual([
      ['tx_types', '[14,15]'],
      ['empty', ''],
    ])
  })

  test('a body without its closing boundary or a part name is refused', () => {
    for (const body of [
      '--b0\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n',
      '--b0\r\nContent-Type: text/plain\r\n\r\n1\r\n--b0--',
    ]) {
      expect(() => parseMultipartForm(body, 'b0')).toThrow(LighterFakeError)
    }
  })
})
