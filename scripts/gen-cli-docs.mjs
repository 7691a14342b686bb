// Writes docs/cli.md from the built CLI's command tree:
//   npm run gen:cli-docs
import { writeFileSync } from 'node:fs'

// defaults some options read from the environment are documented as unset
for (const k of Object.keys(process.env))
  if (k.startsWith('DN_')) delete process.env[k]
const { buildProgram, renderCliReference } = await import('@dn/cli')

const file = new URL('../docs/cli.md', import.meta.url)
writeFileSync(file, renderCliReference(buildProgram()))
console.log(`wrote ${file.pathname}`)
