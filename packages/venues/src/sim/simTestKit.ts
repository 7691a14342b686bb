import {
  type VenueId,
  type VenueOrderRequest,
  VenueRejectedError,
} from '@dn/core'
import { createSimExchange, type SimExchange } from './simExchange.js'

/** 2026-01-01T00:00:00Z, a UTC hour boundary. */
export const T0 = Date.UTC(2026, 0, 1)
export const OWNER = '0x00000000000000000000000000000000000000a1'

interface SimTestKit {
  readonly ex: SimExchange
  now(): number
  /** moves the test clock forward */
  advance(ms: number): void
  setNow(ms: number): void
  /** an order request with defaults (hl BTC IOC buy, fresh cloid) */
  req(over?: Partial<VenueOrderRequest>): VenueOrderRequest
}

/**
 * Test support (not exported by the package): an exchange on a clock the
 * test moves, starting half a second after T0, with a funded OWNER.
 * @internal
 */
export function simTestKit(
  o: { venue?: VenueId; seed?: number; stepMs?: number; fund?: number } = {},
): SimTestKit {
  let now = T0 + 500
  let n = 0
  const ex = createSimExchange({
    venue: o.venue ?? 'hl',
    seed: o.seed ?? 7,
    clock: { now: () => now },
    ...(o.stepMs ? { stepMs: o.stepMs } : {}),
  })
  if (o.fund !== 0) ex.faucet(OWNER, o.fund ?? 100_000)
  return {
    ex,
    now: () => now,
    advance: (ms) => {
      now += ms
    },
    setNow: (ms) => {
      now = ms
    },
    req: (over = {}) => ({
      market: 'BTC',
      side: 'long',
      size: '0.01',
      price: '101000',
      timeInForce: 'ioc',
      reduceOnly: false,
      clientOrderId: `cloid-${++n}`,
      ...over,
    }),
  }
}

/** The venue's reason of a rejected call, or a failure if it was not. */
export function rejectReason(fn: () => unknown): string {
  try {
    fn()
  } catch (err) {
    if (err instanceof VenueRejectedError) return err.reason
    throw err
  }
  throw new RangeError('expected a VenueRejectedError')
}
