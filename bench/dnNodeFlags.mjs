// The node flags `dn` starts with: those of packages/cli/bin/dn.js's
// shebang (`#!/usr/bin/env -S node <flags>`), so a benchmark that starts
// dn's code with process.execPath measures what `dn` runs.
import { readFileSync } from 'node:fs'

const shebang = readFileSync(
  new URL('../packages/cli/bin/dn.js', import.meta.url),
  'utf8',
).split('\n')[0]
const words = shebang.split(/\s+/)

/** e.g. `['--max-semi-space-size=8']`, read once */
export const DN_NODE_FLAGS = Object.freeze(
  words.slice(words.indexOf('node') + 1).filter(Boolean),
)
