import { h, s } from './dom.js'

/** One line of a chart: its points (time in ms, value). */
export interface Series {
  readonly name: string
  /** a class of the stylesheet giving its colour (`line-a`, `line-b`, ...) */
  readonly tone: string
  readonly points: readonly { readonly t: number; readonly v: number }[]
}

const W = 640
const H = 180
const PAD = { left: 76, right: 12, top: 10, bottom: 24 }

function label(v: number, unit: string): string {
  if (v === 0) return unit === '%' ? '0%' : '0'
  const abs = Math.abs(v)
  const digits = abs >= 100 ? 0 : abs >= 1 ? 2 : 4
  return unit === '%' ? `${v.toFixed(digits)}%` : `${v.toFixed(digits)} ${unit}`
}

/** The value axis's labels: top, zero and bottom, each once. */
function ticks(hi: number, lo: number): number[] {
  return [...new Set([hi, 0, lo])]
}

/**
 * A small line chart drawn as SVG (no library, no inline style: the page's
 * CSP allows neither): the series over a shared time axis and a shared
 * value axis that always shows zero. `data-samples` holds how many points
 * the longest series has (the tests read it).
 */
export function lineChart(
  title: string,
  unit: string,
  series: readonly Series[],
): HTMLElement {
  const all = series.flatMap((x) => x.points)
  const samples = Math.max(0, ...series.map((x) => x.points.length))
  const figure = h('figure', { class: 'chart', 'data-samples': samples })
  figure.append(
    h(
      'figcaption',
      {},
      title,
      ...series.map((x) => h('span', { class: `key ${x.tone}` }, x.name)),
    ),
  )
  if (all.length < 2) {
    figure.append(
      h(
        'p',
        { class: 'muted' },
        all.length === 0
          ? 'No samples yet: the worker samples a running task about once a minute.'
          : 'One sample so far; the line starts with the next.',
      ),
    )
    return figure
  }
  const t0 = Math.min(...all.map((p) => p.t))
  const t1 = Math.max(...all.map((p) => p.t))
  let lo = Math.min(0, ...all.map((p) => p.v))
  let hi = Math.max(0, ...all.map((p) => p.v))
  if (hi === lo) {
    hi += 1
    lo -= 1
  }
  const x = (t: number) =>
    PAD.left + ((t - t0) / Math.max(1, t1 - t0)) * (W - PAD.left - PAD.right)
  const y = (v: number) =>
    PAD.top + ((hi - v) / (hi - lo)) * (H - PAD.top - PAD.bottom)
  const fmtT = (t: number) =>
    new Date(t).toLocaleTimeString('en-GB', { hour12: false })
  const svg = s(
    'svg',
    {
      viewBox: `0 0 ${W} ${H}`,
      role: 'img',
      'aria-label': `${title}: ${series.map((x) => x.name).join(', ')}`,
    },
    s('line', {
      class: 'axis',
      x1: PAD.left,
      x2: W - PAD.right,
      y1: y(0),
      y2: y(0),
    }),
    ...ticks(hi, lo).map((v) =>
      s(
        'text',
        { class: 'tick', x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' },
        label(v, unit),
      ),
    ),
    s('text', { class: 'tick', x: PAD.left, y: H - 6 }, fmtT(t0)),
    s(
      'text',
      { class: 'tick', x: W - PAD.right, y: H - 6, 'text-anchor': 'end' },
      fmtT(t1),
    ),
    ...series
      .filter((x) => x.points.length > 0)
      .map((line) =>
        s('polyline', {
          class: `line ${line.tone}`,
          'data-series': line.name,
          points: line.points
            .map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`)
            .join(' '),
        }),
      ),
  )
  figure.append(svg)
  return figure
}
