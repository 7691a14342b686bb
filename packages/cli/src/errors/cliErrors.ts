import { EXIT, type ExitCode } from './exitCodes.js'

/** A failure the CLI explains itself: a stable code, an exit code, a hint. */
export class CliError extends Error {
  override name = 'CliError'
  readonly code: string
  readonly exitCode: ExitCode
  /** the next step, printed under the message */
  readonly hint: string | undefined

  constructor(
    code: string,
    exitCode: ExitCode,
    message: string,
    hint?: string,
  ) {
    super(message)
    this.code = code
    this.exitCode = exitCode
    this.hint = hint
  }
}

/** Bad flags or arguments, found before anything is sent. */
export class UsageError extends CliError {
  override name = 'UsageError'
  constructor(message: string, hint?: string) {
    super('usage', EXIT.usage, message, hint)
  }
}

/** A watched task or order ended in a state other than the awaited one. */
export class EndedError extends CliError {
  override name = 'EndedError'
  readonly resource: unknown
  constructor(message: string, resource: unknown) {
    super('ended', EXIT.ended, message)
    this.resource = resource
  }
}
