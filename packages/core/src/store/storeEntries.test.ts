import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const here = dirname(fileURLToPath(import.meta.url))

/** Package names the runtime import graph of `entry` reaches. */
function packagesReached(entry: string): Set<string> {
  const seen = new Set<string>()
  const packages = new Set<string>()
  const pending = [entry]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    // `import type` is erased at build time, so it loads nothing
    for (const m of source.matchAll(/^import (?!type )[^']*'([^']+)'/gm)) {
      const spec = m[1] ?? ''
      if (spec.startsWith('.')) {
        pending.push(resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      } else {
        packages.add(spec)
      }
    }
  }
  return packages
}

test('behavior: the postgres entry never loads better-sqlite3', () => {
  const reached = packagesReached(resolve(here, 'postgres.ts'))
  expect(reached).toContain('pg')
  expect(reached).not.toContain('better-sqlite3')
})

test('behavior: the sqlite entry never loads pg', () => {
  const reached = packagesReached(resolve(here, 'sqlite.ts'))
  expect(reached).toContain('better-sqlite3')
  expect(reached).not.toContain('pg')
})
