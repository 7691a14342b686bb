import { type DnErrorCode as ClientCode, DN_ERROR_CODES } from '@dn/client'
import { type DnErrorCode as CoreCode, ERROR_CODES } from '@dn/core'
import { describe, expect, expectTypeOf, test } from 'vitest'

// The client may not import core (dependency-cruiser: client-stands-alone),
// so it carries a copy of the code list; this keeps the copy exact.
describe('client error codes', () => {
  test('default: the client lists exactly the codes of the service table', () => {
    expect([...DN_ERROR_CODES].sort()).toEqual(Object.keys(ERROR_CODES).sort())
  })

  test('types: the client union is the core union', () => {
    expectTypeOf<ClientCode>().toEqualTypeOf<CoreCode>()
  })
})
