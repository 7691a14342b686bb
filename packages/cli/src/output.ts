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

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

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
