import type { VenueId } from '../domain/venue.js'
import { RuleViolationError } from '../errors/domain.js'
import type {
  MarketData,
  MarketQuote,
  MarketRules,
} from '../ports/marketData.js'

/** Rules and a fresh quote of one listed market, or 400 `market_not_listed`. */
export async function listedMarket(
  markets: MarketData,
  venue: VenueId,
  symbol: string,
): Promise<{ rules: MarketRules; quote: MarketQuote }> {
  const rules = await markets.rules(venue, symbol)
  if (!rules) {
    throw new RuleViolationError(
      'market_not_listed',
      `${venue} does not list ${symbol}; use the exact listed symbol`,
    )
  }
  return { rules, quote: await markets.quote(venue, symbol) }
}

/** Smallest step that is a multiple of both (steps are decimals > 0). */
export function commonStep(a: string, b: string): string {
  const scale = Math.max(decimals(a), decimals(b))
  const x = toScaled(a, scale)
  const y = toScaled(b, scale)
  const lcm = (x / gcd(x, y)) * y
  const digits = lcm.toString().padStart(scale + 1, '0')
  const whole = digits.slice(0, digits.length - scale)
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '')
  return frac ? `${whole}.${frac}` : whole
}

function decimals(s: string): number {
  const i = s.indexOf('.')
  return i < 0 ? 0 : s.length - i - 1
}

function toScaled(s: string, scale: number): bigint {
  const [whole = '0', frac = ''] = s.split('.')
  return BigInt(whole + frac.padEnd(scale, '0'))
}

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b)
}
