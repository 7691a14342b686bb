import type { Command } from 'commander'
import { EXIT, EXIT_MEANING } from './errors/exitCodes.js'

const WIDTH = 100

/** What `dn … --help` prints for `cmd`, at a fixed width. */
function helpOf(cmd: Command): string {
  let text = ''
  cmd.configureOutput({
    writeOut: (s) => {
      text += s
    },
    getOutHelpWidth: () => WIDTH,
    getOutHasColors: () => false,
  })
  cmd.outputHelp()
  return text.trimEnd()
}

function walk(cmd: Command, path: string[], out: string[]): void {
  const name = path.join(' ')
  out.push(`## ${name}`, '', '```text', helpOf(cmd), '```', '')
  for (const sub of cmd.commands) walk(sub, [...path, sub.name()], out)
}

/**
 * The CLI reference (docs/cli.md), generated from the command tree: a
 * test fails when the committed page differs (`npm run gen:cli-docs`).
 */
export function renderCliReference(program: Command): string {
  const out = [
    '# `dn` command reference',
    '',
    '<!-- generated from the commander tree by `npm run gen:cli-docs`; do not edit -->',
    '',
    'Every command takes the global options (`--url`, `--api-key`, `--profile`, `--json`).',
    'Configuration comes from flags, then the environment, then the config file: see',
    '[configuration.md](configuration.md).',
    '',
    '## Exit codes',
    '',
    '| code | meaning |',
    '| ---- | ------- |',
    ...(Object.keys(EXIT) as (keyof typeof EXIT)[]).map(
      (k) => `| ${EXIT[k]} | ${EXIT_MEANING[k]} |`,
    ),
    '',
    'With `--json`, a failure prints `{"error", "code", "status", "requestId", "hint"}` on stderr.',
    '',
  ]
  walk(program, ['dn'], out)
  return `${out.join('\n').trimEnd()}\n`
}
