/** A decimal string as a number for display and charts (never for money math). */
export function num(v: string | null | undefined): number | null {
  if (v === null || v === undefined || v === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

/** `1234.5` → `1,234.50 USD`-style text; `—` when unknown. */
export function usd(v: string | null | undefined): string {
  const n = num(v)
  if (n === null) return '—'
  const sign = n < 0 ? '−' : ''
  return `${sign}$${Math.abs(n).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  })}`
}

/** A percentage with two places; `—` when unknown. */
export function pct(v: string | number | null | undefined): string {
  const n = typeof v === 'number' ? v : num(v)
  return n === null ? '—' : `${n.toFixed(2)}%`
}

/** A decimal as the API sent it (exact), or `—`. */
export function dec(v: string | null | undefined): string {
  return v === null || v === undefined ? '—' : v
}

/** Local time of an ISO instant, to the second; `—` when absent. */
export function time(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  return Number.isNaN(d.getTime())
    ? iso
    : d.toLocaleString('en-GB', { hour12: false })
}

/** How long ago `ms` was, from `now`: `4 s`, `3 min`, `2 h`. */
export function ago(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000))
  if (s < 120) return `${s} s`
  if (s < 7200) return `${Math.round(s / 60)} min`
  return `${Math.round(s / 3600)} h`
}

/** The legs' spread in basis points: (short − long) / mid. */
export function spreadBps(
  long: string | null,
  short: string | null,
): number | null {
  const a = num(long)
  const b = num(short)
  if (a === null || b === null || a + b === 0) return null
  return ((b - a) / ((a + b) / 2)) * 10_000
}

/** The sign of a value, as a class for colouring. */
export function tone(v: string | null | undefined): string {
  const n = num(v)
  return n === null || n === 0 ? '' : n > 0 ? 'up' : 'down'
}
