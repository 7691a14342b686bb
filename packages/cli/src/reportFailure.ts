import { type Command, CommanderError } from 'commander'
import type { GlobalFlags } from './config/connection.js'
import { resolveConnection } from './config/connection.js'
import { describeError } from './errors/describeError.js'

/**
 * Prints a failure (text, or `{error, code, status, requestId}` JSON with
 * --json, both on stderr) and returns the exit code.
 */
export function reportFailure(err: unknown, program: Command): number {
  const flags = program.opts<GlobalFlags>()
  const json = flags.json === true || process.argv.includes('--json')
  let url: string
  try {
    url = resolveConnection(flags).url
  } catch {
    url = flags.url ?? 'the service'
  }
  const r = describeError(err, url)
  // commander printed its own usage error (and help/version are no errors)
  const printed = err instanceof CommanderError && !json
  if (r.exitCode === 0) return 0
  if (json) {
    process.stderr.write(
      `${JSON.stringify({ error: r.error, code: r.code, status: r.status, requestId: r.requestId, ...(r.hint ? { hint: r.hint } : {}) })}\n`,
    )
  } else if (printed) {
    if (r.hint) process.stderr.write(`  next: ${r.hint}\n`)
  } else {
    process.stderr.write(
      `dn: ${r.error}${r.status ? ` (${r.code}, HTTP ${r.status}${r.requestId ? `, request ${r.requestId}` : ''})` : ''}\n${r.hint ? `  next: ${r.hint}\n` : ''}`,
    )
  }
  return r.exitCode
}
