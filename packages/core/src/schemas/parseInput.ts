import * as v from 'valibot'
import { ValidationError } from '../errors/domain.js'
import type { ErrorCodeOf } from '../errors/errorCodes.js'

/** One readable validation problem: dotted path (`''` at the root). */
export interface InputIssue {
  path: string
  message: string
}

const TYPE_NAMES: Record<string, string> = {
  array: 'an array',
  boolean: 'a boolean',
  number: 'a number',
  string: 'a string',
}

const OBJECT_TYPES = new Set([
  'object',
  'loose_object',
  'strict_object',
  'object_with_rest',
  'variant',
])

function keyOf(issue: v.BaseIssue<unknown>): string {
  return String(issue.path?.at(-1)?.key ?? '').slice(0, 64)
}

function isUnknownKey(issue: v.BaseIssue<unknown>): boolean {
  return OBJECT_TYPES.has(issue.type) && issue.expected === 'never'
}

/** `("a" | "b")` -> `"a", "b"`. */
function options(expected: string | null): string {
  return (expected ?? '').replace(/^\((.*)\)$/, '$1').replaceAll(' | ', ', ')
}

/** `3 items`, `1 character`. */
function bound(requirement: unknown, input: unknown): string {
  const noun = Array.isArray(input) ? 'item' : 'character'
  return `${String(requirement)} ${noun}${requirement === 1 ? '' : 's'}`
}

/**
 * Default wording for issues whose schema gave no message of its own
 * (valibot prefers a schema's explicit message over this one).
 */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  if (isUnknownKey(issue))
    return `unknown field ${JSON.stringify(keyOf(issue))}`
  if (issue.received === 'undefined') return 'is required'
  const req = issue.requirement
  switch (issue.type) {
    case 'array':
    case 'boolean':
    case 'number':
    case 'string':
      return `must be ${TYPE_NAMES[issue.type]}`
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest':
      return 'must be an object'
    case 'variant':
      return issue.path?.length
        ? `must be one of ${options(issue.expected)}`
        : 'must be an object'
    case 'picklist':
      return `must be one of ${options(issue.expected)}`
    case 'literal':
      return `must be ${issue.expected}`
    case 'never':
      return 'is not allowed'
    case 'integer':
      return 'must be an integer'
    case 'min_value':
      return `must be >= ${String(req)}`
    case 'max_value':
      return `must be <= ${String(req)}`
    case 'gt_value':
      return `must be > ${String(req)}`
    case 'lt_value':
      return `must be < ${String(req)}`
    case 'min_length':
      return `must have at least ${bound(req, issue.input)}`
    case 'max_length':
      return `must have at most ${bound(req, issue.input)}`
    case 'regex':
      return `must match ${req instanceof RegExp ? req.source : String(req)}`
    case 'iso_timestamp':
      return 'must be an ISO 8601 date-time'
    default:
      return 'is invalid'
  }
}

/** The dotted path of an issue; unknown keys point at their own key. */
function pathOf(issue: v.BaseIssue<unknown>): string {
  return v.getDotPath(issue) ?? ''
}

/** The path a summary line names: the parent object for unknown keys. */
function summaryPathOf(issue: v.BaseIssue<unknown>): string {
  if (!isUnknownKey(issue)) return pathOf(issue)
  const parent = issue.path?.slice(0, -1) ?? []
  return parent.map((item) => String(item.key)).join('.')
}

/**
 * Validates untrusted input (a JSON body, query or headers) against a
 * schema; the one place request input is parsed.
 *
 * @param schema A valibot schema from `schemas/`.
 * @param value The raw input.
 * @param code The error code for failures.
 * @returns The typed, validated value.
 * @throws {ValidationError} With a one-line message naming the first
 *   problem (`sizeUsd: must be >= 10`) and every issue as `{path, message}`.
 * @example
 * const body = parseInput(CreateTaskBody, JSON.parse(text))
 */
export function parseInput<
  S extends v.BaseSchema<unknown, unknown, v.BaseIssue<unknown>>,
>(
  schema: S,
  value: unknown,
  code: ErrorCodeOf<400> = 'invalid_request',
): v.InferOutput<S> {
  // valibot object schemas accept arrays; a JSON body must be an object.
  const input =
    schema.expects === 'Object' && Array.isArray(value) ? null : value
  const result = v.safeParse(schema, input, { message: describeIssue })
  if (result.success) return result.output
  const issues: InputIssue[] = result.issues.map((issue) => ({
    path: pathOf(issue),
    message: issue.message,
  }))
  const first = result.issues[0]
  const where = summaryPathOf(first)
  throw new ValidationError(
    where ? `${where}: ${first.message}` : first.message,
    issues,
    code,
  )
}
