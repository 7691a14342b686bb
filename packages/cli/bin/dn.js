#!/usr/bin/env -S node --max-semi-space-size=8
// V8's young generation capped at 8 MB per semi-space (its default grows
// to 16): under a sustained POST load `dn serve` peaked at ~158 MB with the
// default and ~141 MB with 8, at the same request rate (bench/README,
// issue 18). It must be given at start, so here and in `npm start`; the
// heap's growth is bounded in process (src/heapGrowth.ts).
// npm links a package's bin when it installs, before the build writes
// dist/: this file is there from the clone on (so `npx dn` works right
// after `npm ci && npm start`) and runs the built CLI.
import { existsSync } from 'node:fs'

const main = new URL('../dist/main.js', import.meta.url)
if (!existsSync(main)) {
  process.stderr.write(
    'dn: not built yet: run `npm run build` (or `npm start`) in the repository first\n',
  )
  process.exit(1)
}
await import(main.href)
