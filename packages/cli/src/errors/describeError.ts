import { DnApiError, DnTimeoutError, DnWaitError } from '@dn/client'
import { CommanderError } from 'commander'
import { CliError } from './cliErrors.js'
import { EXIT, exitForStatus } from './exitCodes.js'
import type { FailureReport } from './failureReport.js'
import { describeNetworkFailure } from './networkFailure.js'

/** What to do without a (valid) API key. */
export const NO_KEY_HINT =
  'pass --api-key, set DN_API_KEY, or save one with `dn keys create --venues hl,aster --max-size-usd 1000 --save`'

const HINT_BY_CODE: Record<string, string> = {
  unauthorized: NO_KEY_HINT,
  api_key_revoked: 'create a new key: `dn keys create --save`',
  venue_not_granted:
    'create a key that grants the venue: `dn keys create --venues … --save`',
  venue_not_bound: 'bind the venue first: `dn bind --venues …`',
  credential_unreadable:
    'rebind the venue: `dn bind --venues … --rebind` (docs/operations.md)',
  close_queued: 'the task is closing: `dn tasks watch <taskId>`',
  order_not_unknown:
    'only an `unknown` order is resolved by hand: `dn orders get <orderId>`',
  workers_not_fenced:
    'stop the workers first (docs/operations.md, "Resolving unknown orders")',
}

function report(
  p: Omit<FailureReport, 'hint' | 'status' | 'requestId'> &
    Partial<FailureReport>,
): FailureReport {
  return { status: null, requestId: null, hint: undefined, ...p }
}

/** Classifies anything a command threw; `url` is the service it called. */
export function describeError(err: unknown, url: string): FailureReport {
  if (err instanceof CliError) {
    return report({
      error: err.message,
      code: err.code,
      exitCode: err.exitCode,
      hint: err.hint,
    })
  }
  if (err instanceof CommanderError) {
    return report({
      error: err.message.replace(/^error: /, ''),
      code: 'usage',
      exitCode: err.exitCode === 0 ? EXIT.ok : EXIT.usage,
      hint: 'add --help for the options and examples',
    })
  }
  if (err instanceof DnApiError) {
    return report({
      error: err.message,
      code: err.code,
      status: err.status,
      requestId: err.requestId,
      exitCode: exitForStatus(err.status),
      hint: HINT_BY_CODE[err.code],
    })
  }
  if (err instanceof DnWaitError) {
    return report({ error: err.message, code: 'ended', exitCode: EXIT.ended })
  }
  if (err instanceof DnTimeoutError) {
    return report({
      error: err.message,
      code: err.code,
      exitCode: EXIT.timeout,
    })
  }
  const network = describeNetworkFailure(err, url)
  if (network) return network
  return report({
    error: err instanceof Error ? err.message : String(err),
    code: 'internal',
    exitCode: EXIT.internal,
  })
}
