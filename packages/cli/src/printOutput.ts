/** Writes a result: JSON for scripts, else the text form. */
export function emit(json: boolean, value: unknown, text: () => string): void {
  process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${text()}\n`)
}

/** `key  value` lines, aligned, for one resource. */
export function details(fields: readonly [string, unknown][]): string {
  const width = Math.max(...fields.map(([k]) => k.length))
  return fields
    .map(
      ([k, v]) =>
        `${k.padEnd(width)}  ${v === null || v === undefined ? '-' : String(v)}`,
    )
    .join('\n')
}

/** "12s ago", "3m ago", "2h ago", "4d ago" from an ISO time. */
export function ago(
  iso: string | null | undefined,
  nowMs = Date.now(),
): string {
  if (!iso) return '-'
  const s = Math.max(0, Math.round((nowMs - Date.parse(iso)) / 1000))
  if (s < 60) return `${s}s ago`
  if (s < 3600) return `${Math.floor(s / 60)}m ago`
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`
  return `${Math.floor(s / 86_400)}d ago`
}
