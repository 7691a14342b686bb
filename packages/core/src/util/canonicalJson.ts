/**
 * Canonical JSON as the contract defines it: object keys sorted recursively
 * (by UTF-16 code unit, like JavaScript's default sort), array order kept,
 * no whitespace. `undefined` members are dropped, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value))
}

function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep)
  if (value !== null && typeof value === 'object') {
    // null prototype: a JSON key "__proto__" stays an own property
    const out: Record<string, unknown> = Object.create(null)
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key]
      if (v !== undefined) out[key] = sortDeep(v)
    }
    return out
  }
  return value
}
