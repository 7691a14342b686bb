import { buildProgram } from './cliProgram.js'
import { boundHeapGrowth } from './heapGrowth.js'
import { reportFailure } from './reportFailure.js'

boundHeapGrowth()
const program = buildProgram()
program.parseAsync(process.argv).catch((err: unknown) => {
  process.exit(reportFailure(err, program))
})
