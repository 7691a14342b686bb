import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { bundleCli } from './support/bundleCli.js'

const run = promisify(execFile)

/** The bash completion script, loaded into a real bash and asked. */
describe('dn completion', () => {
  let cli: string
  let script: string
  beforeAll(async () => {
    cli = await bundleCli()
    script = (await run(process.execPath, [cli, 'completion', 'bash'])).stdout
  }, 60_000)
  afterAll(() => {
    if (cli) rmSync(dirname(cli), { recursive: true, force: true })
  })

  /** What bash offers after `dn <words>` with `current` half typed. */
  async function complete(words: string[], current: string): Promise<string[]> {
    const line = ['dn', ...words, current].map((w) => `'${w}'`).join(' ')
    const { stdout } = await run('bash', [
      '-c',
      `${script}\nCOMP_WORDS=(${line}); COMP_CWORD=${words.length + 1}; _dn_complete; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ])
    return stdout.split('\n').filter(Boolean).sort()
  }

  test('commands, subcommands and options complete', async () => {
    expect(await complete([], 'ta')).toEqual(['tasks'])
    expect(await complete(['tasks'], 'c')).toEqual([
      'cancel',
      'close',
      'create',
    ])
    expect(await complete(['tasks', 'create'], '--s')).toEqual(
      expect.arrayContaining(['--short', '--size-usd', '--size-mismatch-pct']),
    )
    expect(
      await complete(['orders', 'create', '--venue', 'hl'], '--re'),
    ).toEqual(['--reduce-only'])
  })

  test('zsh gets the same through bashcompinit', async () => {
    const { stdout } = await run(process.execPath, [cli, 'completion', 'zsh'])
    expect(stdout).toContain('bashcompinit')
    expect(stdout).toContain('complete -F _dn_complete dn')
  })
})
