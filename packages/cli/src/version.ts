import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The CLI package's version: the nearest `@dn/cli` package.json above this
 * file (dist/main.js, or a test bundle inside the package).
 */
function findVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string
        version?: string
      }
      if (pkg.name === '@dn/cli' && pkg.version) return pkg.version
    }
    const up = dirname(dir)
    if (up === dir) return '0.0.0-unknown'
    dir = up
  }
}

export const CLI_VERSION = findVersion()
