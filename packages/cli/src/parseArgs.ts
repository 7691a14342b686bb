import { InvalidArgumentError } from 'commander'

export const VENUES = ['hl', 'lighter', 'lighter-mainnet', 'aster'] as const
export type VenueName = (typeof VENUES)[number]

/** A finite number > 0 (or >= 0 with `zero`), for commander's argParser. */
export function numberArg(opts: { zero?: boolean; integer?: boolean } = {}) {
  return (raw: string): number => {
    const n = Number(raw)
    if (raw.trim() === '' || !Number.isFinite(n))
      throw new InvalidArgumentError(`${raw} is not a number`)
    if (opts.integer && !Number.isInteger(n))
      throw new InvalidArgumentError(`${raw} is not a whole number`)
    if (opts.zero ? n < 0 : n <= 0)
      throw new InvalidArgumentError(
        `${raw} must be ${opts.zero ? 'at least 0' : 'greater than 0'}`,
      )
    return n
  }
}

export function venueArg(raw: string): VenueName {
  if ((VENUES as readonly string[]).includes(raw)) return raw as VenueName
  throw new InvalidArgumentError(
    `unknown venue ${raw}: use ${VENUES.join(', ')}`,
  )
}

/**
 * `hl:BTC`, `aster:BTCUSDT`, `hl:xyz:TSLA` (a prefixed symbol keeps its
 * own colon): the venue is what comes before the first colon.
 */
export function venueMarketArg(raw: string): {
  venue: VenueName
  market: string
} {
  const at = raw.indexOf(':')
  if (at <= 0 || at === raw.length - 1)
    throw new InvalidArgumentError(
      `${raw} is not <venue>:<market>, e.g. hl:BTC or aster:BTCUSDT`,
    )
  return { venue: venueArg(raw.slice(0, at)), market: raw.slice(at + 1) }
}

export function listArg<T>(item: (raw: string) => T) {
  return (raw: string): T[] =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(item)
}
