import type { TaskPnl } from '../schemas/taskPnl.js'
import { type Decimal, dec, decString } from '../util/decimal.js'
import { EMPTY_LEG_BOOK } from './legBook.js'
import type { TaskRecord } from './task.js'
import type { Leg } from './taskEngineState.js'

const usd = (d: Decimal) => decString(d.toDecimalPlaces(6))
const price = (notional: string, base: string) =>
  dec(base).gt(0) ? decString(dec(notional).div(base).toDecimalPlaces(8)) : null

/**
 * A task's PnL as the Task response shows it, from what is stored: the
 * legs' fill books (realized PnL, average entry and exit, builder and
 * venue trading fees), the size and entry held now against the latest
 * mark the monitor saw (unrealized), and the funding booked. A leg's
 * `feesUsd` (venue fees) is null while the fee of one of its fills is
 * not known; the totals count every fee that is. total = realized +
 * unrealized + funding − fees.
 */
export function taskPnl(t: TaskRecord): TaskPnl {
  const books = t.engineState?.books ?? {}
  const legView = (leg: Leg) => {
    const b = books[leg] ?? EMPTY_LEG_BOOK
    const size = dec((leg === 'long' ? t.longSize : t.shortSize) ?? '0')
    const entry = leg === 'long' ? t.longEntry : t.shortEntry
    const mark = leg === 'long' ? t.longPrice : t.shortPrice
    const move =
      size.gt(0) && entry !== null && mark !== null
        ? dec(mark).sub(entry).mul(size)
        : dec(0)
    return {
      realizedUsd: usd(dec(b.realizedUsd)),
      unrealizedUsd: usd(leg === 'long' ? move : move.neg()),
      feesUsd:
        b.venueFeesUnknown === false ? usd(dec(b.venueFeesUsd ?? '0')) : null,
      builderFeesUsd: usd(dec(b.builderFeesUsd)),
      entryPrice: price(b.openNotional, b.openBase) ?? entry,
      exitPrice: price(b.closeNotional, b.closeBase),
    }
  }
  const long = legView('long')
  const short = legView('short')
  const sum = (f: 'realizedUsd' | 'unrealizedUsd' | 'builderFeesUsd') =>
    dec(long[f]).add(short[f])
  const venueFees = (leg: Leg) => dec(books[leg]?.venueFeesUsd ?? '0')
  const fees = sum('builderFeesUsd')
    .add(venueFees('long'))
    .add(venueFees('short'))
  const total = sum('realizedUsd')
    .add(sum('unrealizedUsd'))
    .add(t.fundingUsd)
    .sub(fees)
  return {
    long,
    short,
    realizedUsd: usd(sum('realizedUsd')),
    unrealizedUsd: usd(sum('unrealizedUsd')),
    fundingUsd: decString(t.fundingUsd),
    feesUsd: usd(fees),
    totalUsd: usd(total),
  }
}
