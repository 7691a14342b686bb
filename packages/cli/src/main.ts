import { Command } from 'commander'
import { registerUpCommands } from './commands/upCommand.js'
import { registerWalletCommands } from './commands/walletCommands.js'
import { registerWorkerCommands } from './commands/workerCommand.js'

const program = new Command()
  .name('dn')
  .description('paired perpetual positions and direct perpetual orders')
registerUpCommands(program)
registerWorkerCommands(program)
registerWalletCommands(program)

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(
    `dn: ${err instanceof Error ? err.message : String(err)}\n`,
  )
  process.exit(1)
})
