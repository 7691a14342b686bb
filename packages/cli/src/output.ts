/** A plain text table: one header row, aligned columns. */
export function table(
  rows: readonly Record<string, unknown>[],
  columns: readonly string[],
): string {
  const cells = rows.map((r) => columns.map((c) => String(r[c] ?? '')))
  const widths = columns.map((c, i) =>
    Math.max(c.length, ...cells.map((row) => (row[i] as string).length)),
  )
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd()
  return [
    line(columns),
    line(widths.map((w) => '-'.repeat(w))),
    ...cells.map(line),
  ].join('\n')
}

export const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * A one-line status on stderr while waiting: redrawn in place on a
 * terminal, one line per change otherwise (so logs stay readable).
 */
export function statusLine(): { update(text: string): void; done(): void } {
  const tty = process.stderr.isTTY
  let frame = 0
  let last = ''
  return {
    update(text) {
      if (tty) {
        process.stderr.write(
          `\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`,
        )
      } else if (text !== last) {
        process.stderr.write(`${text}\n`)
      }
      last = text
    },
    done() {
      if (tty) process.stderr.write('\r\x1b[2K')
    },
  }
}

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
