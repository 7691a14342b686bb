import type { ExitCode } from './exitCodes.js'

/** Everything the CLI says about a failure, in text and in `--json`. */
export interface FailureReport {
  readonly error: string
  readonly code: string
  readonly status: number | null
  readonly requestId: string | null
  readonly hint: string | undefined
  readonly exitCode: ExitCode
}
