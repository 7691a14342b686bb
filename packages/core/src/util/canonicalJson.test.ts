import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { canonicalJson } from './canonicalJson.js'

describe('canonicalJson', () => {
  test('default: sorts keys recursively, keeps array order, no whitespace', () => {
    expect(
      canonicalJson({ b: 1, a: [{ z: 1, y: 2 }, 3], c: { e: null, d: 'x' } }),
    ).toBe('{"a":[{"y":2,"z":1},3],"b":1,"c":{"d":"x","e":null}}')
  })

  test('behavior: a "__proto__" key from JSON stays data', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"x":1}}')
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"x":1},"b":1}')
  })

  test('behavior: drops undefined members', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}')
  })

  test('behavior: key order of the input never matters', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse())
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj))
        expect(JSON.parse(canonicalJson(obj))).toEqual(
          JSON.parse(JSON.stringify(obj)),
        )
      }),
    )
  })
})
