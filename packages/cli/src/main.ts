import { Command } from 'commander'
import { registerServeCommands } from './commands/upCommand.js'

const program = new Command()
  .name('dn')
  .description('paired perpetual positions and direct perpetual orders')
registerServeCommands(program)

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(
    `dn: ${err instanceof Error ? err.message : String(err)}\n`,
  )
  process.exit(1)
})
