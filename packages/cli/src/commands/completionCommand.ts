import { Argument, type Command } from 'commander'

/** Every command path (`dn tasks list`) with the words that may follow it. */
function commandWords(root: Command): Map<string, string[]> {
  const words = new Map<string, string[]>()
  const walk = (cmd: Command, path: string, inherited: string[]) => {
    const own = cmd.options.flatMap((o) =>
      [o.long, o.short].filter((f): f is string => !!f),
    )
    const subs = cmd.commands.map((c) => c.name())
    words.set(path, [...subs, ...own, ...inherited, '--help'])
    // the global options (the root's) follow every command
    for (const c of cmd.commands)
      walk(c, `${path} ${c.name()}`, path === 'dn' ? own : inherited)
  }
  // a bash key cannot be empty: every path starts with `dn`
  walk(root, 'dn', [])
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
  local path="dn" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -n "\${words["$path $w"]+x}" ]]; then path="$path $w"; fi
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
    .addArgument(
      new Argument('[shell]', 'bash or zsh')
        .choices(['bash', 'zsh'])
        .default('bash'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ eval "$(dn completion bash)"\n  $ dn completion zsh >> ~/.zshrc\n',
    )
    .action((shell: 'bash' | 'zsh') => {
      process.stdout.write(
        shell === 'zsh' ? zshScript(program) : bashScript(program),
      )
    })
}
