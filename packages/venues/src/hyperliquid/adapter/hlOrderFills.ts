import { type Decimal, dec, decString, type RequestPriority } from '@dn/core'
import type { HlPost } from './hlTransport.js'

/** Hyperliquid pages `userFillsByTime` at 2000 fills. */
const PAGE = 2000
const MAX_PAGES = 10

/** What one order's fills add up to. */
interface HlOrderFills {
  /** the volume-weighted average price: the venue's avgPx */
  readonly averagePrice: string
  /**
   * the venue's own trading fee, USD: each fill's `fee` less its
   * `builderFee` (the builder's part, which the worker books apart);
   * null when a fill pays its fee in another token than USDC
   */
  readonly feeUsd: string | null
}

/**
 * One order's fills, read from `userFillsByTime` from `startTime` (the
 * order's timestamp, or before) on: neither `orderStatus` nor the order
 * answer tells the prices or fees. Null when the fills found do not add up
 * to `filledBase` yet (the history lags the order by a moment).
 */
export async function hlOrderFills(
  post: HlPost,
  user: string,
  order: { readonly oid: number; readonly startTime: number },
  filledBase: string,
  priority: RequestPriority,
): Promise<HlOrderFills | null> {
  const all = await readFills(post, user, order.startTime, priority)
  if (!all) return null
  const mine = all.filter((f) => f.oid === order.oid)
  return sumFills(mine, filledBase)
}

/**
 * A user's fills from `startTime` on, page after page (2,000 a page);
 * null when the venue answers something else than a list.
 */
async function readFills(
  post: HlPost,
  user: string,
  startTime: number,
  priority: RequestPriority,
): Promise<Fill[] | null> {
  const fills: Fill[] = []
  let from = startTime
  for (let page = 0; page < MAX_PAGES; page++) {
    const raw = await post(
      '/info',
      { type: 'userFillsByTime', user, startTime: from },
      'read',
      priority,
    )
    if (!Array.isArray(raw)) return null
    let last = from
    for (const f of raw) {
      if (typeof f !== 'object' || f === null) continue
      const r = f as Record<string, unknown>
      if (typeof r.time === 'number') last = Math.max(last, r.time)
      if (typeof r.px !== 'string' || typeof r.sz !== 'string') continue
      fills.push({ oid: r.oid, px: r.px, sz: r.sz, row: r })
    }
    if (raw.length < PAGE) break
    from = last + 1
  }
  return fills
}

/**
 * What an order's fills add up to; null unless they make its whole
 * filled size (the history lags the order by a moment).
 */
function sumFills(
  fills: readonly Fill[],
  filledBase: string,
): HlOrderFills | null {
  let size: Decimal = dec(0)
  let notional: Decimal = dec(0)
  let fee: Decimal | null = dec(0)
  for (const f of fills) {
    size = size.add(f.sz)
    notional = notional.add(dec(f.sz).mul(f.px))
    fee = addFee(fee, f.row)
  }
  if (size.isZero() || !size.eq(dec(filledBase))) return null
  return {
    // the venue's avgPx: full precision, no trailing zeros
    averagePrice: decString(notional.div(size).toDecimalPlaces(12)),
    feeUsd: fee === null ? null : decString(fee),
  }
}

function addFee(sum: Decimal | null, f: Record<string, unknown>) {
  if (sum === null || typeof f.fee !== 'string') return null
  if (f.feeToken !== undefined && f.feeToken !== 'USDC') return null
  const builder = typeof f.builderFee === 'string' ? f.builderFee : '0'
  return sum.add(f.fee).sub(builder)
}

/** Users whose fills a book keeps; the least recently used go first. */
const BOOK_USERS = 512
/** A book holding more fills than this starts again. */
const BOOK_FILLS = 5_000
/**
 * How far before its last read a book reads again: a fill shows in the
 * history a moment after its time, so a read's last moments are not
 * taken as complete.
 */
const HISTORY_LAG_MS = 5_000
/** A book not read for this long is read afresh from the order's time. */
const BOOK_STALE_MS = 120_000

interface Fill {
  readonly oid: unknown
  readonly px: string
  readonly sz: string
  readonly row: Record<string, unknown>
}

/** One user's fills over [since, readAt], each once (by trade id). */
interface FillsBook {
  since: number
  readAt: number
  /** an order's fills did not add up after a read on: read afresh next */
  short?: boolean
  readonly fills: Map<string, Fill>
}

/**
 * One order's fills from a book of its user's fills shared by every
 * lookup of that user: the history is read once for all the user's
 * orders (from its last read on, each fill kept once by its trade id),
 * not once per order. An order whose fills add up to its filled size in
 * the book costs no read: fills never change once made. Lookups of one
 * user share a read in flight. Dozens of orders reconciled after lost
 * answers each asked `userFillsByTime` (20 and more) before; under a
 * spent budget the refusals made each order ask again.
 */
export function createHlUserFills(clock: { now(): number }) {
  const books = new Map<string, FillsBook>()
  const reading = new Map<string, Promise<void>>()

  function fromBook(book: FillsBook | undefined, oid: number, want: string) {
    if (!book) return null
    const mine = [...book.fills.values()].filter((f) => f.oid === oid)
    return sumFills(mine, want)
  }

  async function read(
    post: HlPost,
    user: string,
    startTime: number,
    priority: RequestPriority,
  ) {
    const now = clock.now()
    const held = books.get(user)
    // reading on from the book keeps its span whole; an older order, or
    // a book left unread, is read afresh from the order's time
    const fresh =
      !held ||
      startTime < held.since ||
      held.readAt < now - BOOK_STALE_MS ||
      held.fills.size > BOOK_FILLS ||
      held.short === true
    const book: FillsBook = fresh
      ? { since: startTime, readAt: startTime, fills: new Map() }
      : held
    const from = fresh
      ? startTime
      : Math.max(book.since, book.readAt - HISTORY_LAG_MS)
    const read = await readFills(post, user, from, priority)
    if (!read) return
    for (const f of read) book.fills.set(fillKey(f.row), f)
    book.readAt = now
    books.delete(user)
    books.set(user, book)
    if (books.size > BOOK_USERS) {
      books.delete(books.keys().next().value as string)
    }
  }

  // the same call as hlOrderFills, answered from the book
  const userOrderFills: typeof hlOrderFills = async (
    post,
    user,
    order,
    filledBase,
    priority,
  ) => {
    const key = user.toLowerCase()
    const known = fromBook(books.get(key), order.oid, filledBase)
    if (known) return known
    const inFlight = reading.get(key)
    if (inFlight) {
      await inFlight.catch(() => undefined)
      const shared = fromBook(books.get(key), order.oid, filledBase)
      if (shared) return shared
    }
    const mine = read(post, key, order.startTime, priority)
    reading.set(key, mine)
    try {
      await mine
    } finally {
      if (reading.get(key) === mine) reading.delete(key)
    }
    const book = books.get(key)
    const got = fromBook(book, order.oid, filledBase)
    // a fill that showed later than the history's usual lag is found by
    // reading the order's whole span: the next lookup does
    if (!got && book) book.short = true
    return got
  }
  return userOrderFills
}

/** A fill's identity: its trade id, as the venue numbers trades. */
function fillKey(r: Record<string, unknown>): string {
  if (typeof r.tid === 'number' || typeof r.tid === 'string') {
    return `tid:${r.tid}`
  }
  return `${String(r.hash)}|${String(r.oid)}|${String(r.time)}|${String(r.sz)}|${String(r.px)}`
}
