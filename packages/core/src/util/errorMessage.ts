/** What an error says, for a log line or a stored note. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
