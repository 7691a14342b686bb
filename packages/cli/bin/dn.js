#!/usr/bin/env node
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
