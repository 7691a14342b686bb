import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { EmptyBody } from './emptyBody.js'
import { EmptyQuery } from './emptyQuery.js'
import { parseInput } from './parseInput.js'

describe('EmptyBody', () => {
  test('default: {} passes', () => {
    expect(parseInput(EmptyBody, {})).toEqual({})
  })

  test('error: any property, array or non-object fails', () => {
    expect(() => parseInput(EmptyBody, { reason: 'x' })).toThrow(
      'unknown field "reason"',
    )
    for (const bad of [[], null, 'x', 0, true]) {
      expect(() => parseInput(EmptyBody, bad)).toThrow('must be an object')
    }
  })

  test('property: any non-empty object fails', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 }),
        (value) => {
          try {
            parseInput(EmptyBody, value)
            return Object.keys(value).length === 0
          } catch (err) {
            return err instanceof ValidationError
          }
        },
      ),
    )
  })
})

describe('EmptyQuery', () => {
  test('behavior: no parameters pass, any parameter fails', () => {
    expect(parseInput(EmptyQuery, {})).toEqual({})
    expect(() => parseInput(EmptyQuery, { limit: 1 })).toThrow(
      'unknown field "limit"',
    )
  })
})
