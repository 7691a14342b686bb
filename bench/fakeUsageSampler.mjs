// What the protocol fakes counted, sampled while a benchmark measures:
// shared by bench/venueBudget.mjs and bench/venueBudgetScale.mjs.
import { PROTOCOL_VENUES } from '../packages/cli/dist/index.js'

export const SAMPLE_MS = 100
export const MINUTE_MS = 60_000
/** Limits counted per calendar window at the fake (Aster's minute). */
export const FIXED_WINDOW = new Set(['aster'])

/**
 * Reads every bucket of every fake every SAMPLE_MS: the highest weight a
 * bucket held while measuring, and for calendar-window limits (Aster)
 * the weight added (a window's weight only grows until the next one).
 */
export function createSampler(fakes) {
  const buckets = new Map()
  let measuring = false
  function sample() {
    const at = Date.now()
    for (const [venue, fake] of Object.entries(fakes)) {
      for (const u of fake.rateLimitUsage()) {
        const key = `${venue}\u0000${u.limit}\u0000${u.subject}`
        let b = buckets.get(key)
        if (!b) {
          b = { venue, usage: u, added: 0, lastWeight: 0, lastMinute: null }
          b.peakInWindow = 0
          buckets.set(key, b)
        }
        const minute = Math.floor(at / MINUTE_MS)
        if (FIXED_WINDOW.has(venue)) {
          const fresh = b.lastMinute !== minute || u.weight < b.lastWeight
          b.added += fresh ? u.weight : u.weight - b.lastWeight
        }
        b.lastMinute = minute
        b.lastWeight = u.weight
        b.usage = u
        if (measuring) b.peakInWindow = Math.max(b.peakInWindow, u.weight)
      }
    }
  }
  const timer = setInterval(sample, SAMPLE_MS)
  return {
    buckets,
    sample,
    setMeasuring(on) {
      sample()
      measuring = on
      sample()
    },
    stop() {
      clearInterval(timer)
    },
  }
}

/** Every bucket as it stands: usage, and what the sampler added up. */
export function snapshot(sampler) {
  sampler.sample()
  return new Map(
    [...sampler.buckets].map(([k, b]) => [
      k,
      { ...b.usage, venue: b.venue, added: b.added },
    ]),
  )
}

/**
 * One row per bucket over the measuring window: requests and weight a
 * minute (Aster: the weight its calendar minutes added; the others: the
 * sliding window read at the end of each minute), the peak in any window
 * while measuring, refusals.
 */
export function bucketRows({ before, after, minuteReads, sampler, minutes }) {
  const rows = [...after].map(([k, a]) => {
    const b = before.get(k) ?? {
      requests: 0,
      refused: 0,
      peak: 0,
      added: 0,
    }
    const s = sampler.buckets.get(k)
    const weightPerMin = FIXED_WINDOW.has(a.venue)
      ? (a.added - b.added) / minutes
      : minuteReads.reduce((sum, r) => sum + (r.get(k)?.weight ?? 0), 0) /
        minutes
    const peak = Math.max(s.peakInWindow, a.peak > b.peak ? a.peak : 0)
    return {
      venue: a.venue,
      limit: a.limit,
      per: a.per,
      subject: a.subject,
      capacity: a.capacity,
      requestsPerMin: (a.requests - b.requests) / minutes,
      weightPerMin,
      peak,
      lifetimePeak: a.peak,
      refused: a.refused - b.refused,
      refusedTotal: a.refused,
    }
  })
  const order = (v) => PROTOCOL_VENUES.indexOf(v)
  rows.sort(
    (x, y) =>
      order(x.venue) - order(y.venue) ||
      (x.per === y.per ? 0 : x.per === 'ip' ? -1 : 1) ||
      x.limit.localeCompare(y.limit),
  )
  return rows
}
