import { type Command, Option } from 'commander'

/** Every command path (`tasks list`) with the words that may follow it. */
function commandWords(root: Command): Map<string, string[]> {
  const words = new Map<string, string[]>()
  const walk = (cmd: Command, path: string, inherited: string[]) => {
    const own = cmd.options.flatMap((o) =>
      [o.long, o.short].filter((f): f is string => !!f),
    )
    const subs = cmd.commands.map((c) => c.name())
    words.set(path, [...subs, ...own, ...inherited, '--help'])
    for (const c of cmd.commands)
      walk(c, path ? `${path} ${c.name()}` : c.name(), path ? inherited : own)
  }
  walk(root, '', [])
  return words
}

function bashScript(root: Command): string {
  const entries = [...commandWords(root)]
    .map(
      ([path, w]) =>
        `    [${JSON.stringify(path)}]=${JSON.stringify(w.join(' '))}`,
    )
    .join('\n')
  return `# dn completion for bash: eval "$(dn completion bash)" in ~/.bashrc
_dn_complete() {
  local -A words=(
${entries}
  )
  local path="" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -n "\${words["\${path:+$path }$w"]+x}" ]]; then path="\${path:+$path }$w"; fi
  done
  COMPREPLY=($(compgen -W "\${words["$path"]}" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -F _dn_complete dn
`
}

function zshScript(root: Command): string {
  return `# dn completion for zsh: eval "$(dn completion zsh)" in ~/.zshrc
autoload -U +X bashcompinit && bashcompinit
${bashScript(root)}`
}

export function registerCompletionCommand(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script')
    .addOption(
      new Option('--shell <shell>', 'bash or zsh')
        .choices(['bash', 'zsh'])
        .default('bash'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ eval "$(dn completion --shell bash)"\n  $ dn completion --shell zsh >> ~/.zshrc\n',
    )
    .action((f: { shell: 'bash' | 'zsh' }) => {
      process.stdout.write(
        f.shell === 'zsh' ? zshScript(program) : bashScript(program),
      )
    })
}
