import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

describe('docs/cli.md', () => {
  test('is the reference the command tree renders today', async () => {
    // options whose defaults read the environment are documented unset
    const saved = { ...process.env }
    for (const k of Object.keys(process.env))
      if (k.startsWith('DN_')) delete process.env[k]
    try {
      const { buildProgram } = await import('../packages/cli/src/cliProgram.js')
      const { renderCliReference } = await import(
        '../packages/cli/src/cliReference.js'
      )
      const committed = readFileSync(
        new URL('../docs/cli.md', import.meta.url),
        'utf8',
      )
      expect(
        renderCliReference(buildProgram()) === committed,
        'docs/cli.md is stale: run `npm run gen:cli-docs`',
      ).toBe(true)
    } finally {
      process.env = saved
    }
  })

  test('names every command and the exit codes', async () => {
    const page = readFileSync(
      new URL('../docs/cli.md', import.meta.url),
      'utf8',
    )
    for (const c of [
      'dn tasks create',
      'dn tasks watch',
      'dn orders resolve',
      'dn status',
      'dn markets',
      'dn bindings',
      'dn keys create',
      'dn completion',
    ])
      expect(page).toContain(`## ${c}\n`)
    expect(page).toMatch(/\| 6 \| the service could not be reached/)
  })
})
