import { buildProgram } from './cliProgram.js'
import { reportFailure } from './reportFailure.js'

const program = buildProgram()
program.parseAsync(process.argv).catch((err: unknown) => {
  process.exit(reportFailure(err, program))
})
