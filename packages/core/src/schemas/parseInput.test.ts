import * as v from 'valibot'
import { describe, expect, test } from 'vitest'
import { ValidationError } from '../errors/domain.js'
import { CreateTaskBody } from './createTaskBody.js'
import { parseInput } from './parseInput.js'

function failure(schema: v.GenericSchema, value: unknown): ValidationError {
  try {
    parseInput(schema, value)
  } catch (err) {
    if (err instanceof ValidationError) return err
    throw err
  }
  return expect.unreachable('parseInput passed')
}

const Sample = v.strictObject({
  name: v.pipe(v.string(), v.minLength(2), v.maxLength(3)),
  tags: v.optional(v.pipe(v.array(v.string()), v.maxLength(1))),
  nested: v.optional(
    v.strictObject({
      kind: v.picklist(['a', 'b']),
      flag: v.optional(v.literal(true)),
      pattern: v.optional(v.pipe(v.string(), v.regex(/^x+$/))),
      n: v.optional(v.pipe(v.number(), v.integer(), v.ltValue(5))),
    }),
  ),
})

describe('parseInput', () => {
  test('default: returns the typed value', () => {
    const out = parseInput(Sample, { name: 'ab' })
    expect(out).toEqual({ name: 'ab' })
  })

  test('error: ValidationError 400 with code, message and issues', () => {
    const err = failure(Sample, { name: 'a', extra: 1 })
    expect(err.status).toBe(400)
    expect(err.code).toBe('invalid_request')
    expect(err.message).toBe('name: must have at least 2 characters')
    expect(err.issues).toEqual([
      { path: 'name', message: 'must have at least 2 characters' },
      { path: 'extra', message: 'unknown field "extra"' },
    ])
    expect(err.details).toEqual({ issues: err.issues })
  })

  test('behavior: custom code', () => {
    expect(() => parseInput(Sample, {}, 'invalid_body')).toThrow(
      expect.objectContaining({ code: 'invalid_body' }),
    )
  })

  test('behavior: nested paths are dotted; unknown keys name their parent', () => {
    expect(failure(Sample, { name: 'ab', nested: { kind: 'c' } }).message).toBe(
      'nested.kind: must be one of "a", "b"',
    )
    const err = failure(Sample, { name: 'ab', nested: { kind: 'a', zz: 1 } })
    expect(err.message).toBe('nested: unknown field "zz"')
    expect(err.issues[0]?.path).toBe('nested.zz')
  })

  test('behavior: readable wording per rule', () => {
    const cases: [unknown, string][] = [
      [{ name: 'abcd' }, 'name: must have at most 3 characters'],
      [{ name: 'ab', tags: ['a', 'b'] }, 'tags: must have at most 1 item'],
      [{ name: 'ab', tags: 'a' }, 'tags: must be an array'],
      [{ name: 'ab', tags: [1] }, 'tags.0: must be a string'],
      [{ name: 'ab', nested: 1 }, 'nested: must be an object'],
      [
        { name: 'ab', nested: { kind: 'a', flag: false } },
        'nested.flag: must be true',
      ],
      [
        { name: 'ab', nested: { kind: 'a', pattern: 'y' } },
        'nested.pattern: must match ^x+$',
      ],
      [
        { name: 'ab', nested: { kind: 'a', n: 1.5 } },
        'nested.n: must be an integer',
      ],
      [{ name: 'ab', nested: { kind: 'a', n: 5 } }, 'nested.n: must be < 5'],
      [{}, 'name: is required'],
    ]
    for (const [value, message] of cases) {
      expect(failure(Sample, value).message).toBe(message)
    }
  })

  test('behavior: schema messages win over default wording', () => {
    const err = failure(CreateTaskBody, {
      longVenue: 'hl',
      shortVenue: 'hl',
      longMarket: 'BTC',
      shortMarket: 'BTC',
      sizeUsd: 10,
    })
    expect(err.message).toBe('shortVenue: must differ from longVenue')
  })

  test('behavior: root problems have an empty path', () => {
    const err = failure(Sample, 'text')
    expect(err.message).toBe('must be an object')
    expect(err.issues).toEqual([{ path: '', message: 'must be an object' }])
  })

  test('behavior: an array is not an object body', () => {
    expect(failure(v.strictObject({}), []).message).toBe('must be an object')
    expect(parseInput(v.array(v.number()), [1])).toEqual([1])
  })

  test('behavior: long unknown keys are cut in the message', () => {
    const key = 'k'.repeat(200)
    expect(failure(Sample, { name: 'ab', [key]: 1 }).message).toBe(
      `unknown field "${'k'.repeat(64)}"`,
    )
  })
})
