import { Command } from 'commander'
import { registerCompletionCommand } from './commands/completionCommand.js'
import { registerConfigCommands } from './commands/configCommands.js'
import { registerOrderCommands } from './commands/orderCommands.js'
import { registerReadCommands } from './commands/readCommands.js'
import { registerStatusCommand } from './commands/statusCommand.js'
import { registerTaskCommands } from './commands/taskCommands.js'
import { registerUpCommands } from './commands/upCommand.js'
import { registerWalletCommands } from './commands/walletCommands.js'
import { registerWorkerCommands } from './commands/workerCommand.js'
import { CLI_VERSION } from './version.js'

/** The `dn` command tree: every command, option and help text. */
export function buildProgram(): Command {
  const program = new Command()
    .name('dn')
    .description('paired perpetual positions and direct perpetual orders')
    .version(CLI_VERSION, '-V, --version')
    .option(
      '--url <url>',
      'service URL (env DN_URL; default http://127.0.0.1:8080)',
    )
    .option('--api-key <key>', 'API key (env DN_API_KEY)')
    .option(
      '--profile <name>',
      'config file profile (env DN_PROFILE; default "default")',
    )
    .option('--json', 'print JSON, errors included (on stderr)')
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .exitOverride()
    .configureOutput({
      // --json callers get the error as JSON from reportFailure instead
      outputError: (text, write) => {
        if (!process.argv.includes('--json')) write(text)
      },
    })
  registerUpCommands(program)
  registerWorkerCommands(program)
  registerWalletCommands(program)
  registerTaskCommands(program)
  registerOrderCommands(program)
  registerStatusCommand(program)
  registerReadCommands(program)
  registerConfigCommands(program)
  registerCompletionCommand(program)
  return program
}
