import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { VenueOrder, VenueOrderState } from '../ports/venueAdapter.js'
import {
  DEFAULT_VISIBILITY_LAG_MS,
  NEVER_PLACED_AFTER_MS,
  SEND_WINDOW_MS,
} from './sendWindow.js'
import {
  cancelDue,
  EDGE_WAIT_MS,
  lookupAtEdge,
  lookupMayResend,
  neverPlacedProvableAt,
  READY_ATTEMPT,
  type VenueOrderAttempt,
  type VenueOrderAttemptStatus,
  type VenueOrderEvent,
  venueOrderMachine,
} from './venueOrderMachine.js'

const T0 = Date.UTC(2030, 0, 1)
/** the last send started at T0: its deadline */
const SENT_BY = T0 + SEND_WINDOW_MS

function venueOrder(state: VenueOrderState, reason: string | null = null) {
  return {
    clientOrderId: '0x01',
    venueOrderId: '7',
    state,
    size: '1',
    filledBase: state === 'filled' ? '1' : '0',
    averagePrice: state === 'filled' ? '100' : null,
    venueStatus: state,
    reason,
  } satisfies VenueOrder
}

/** One attempt in each status, as the worker would hold it. */
function attemptIn(status: VenueOrderAttemptStatus): VenueOrderAttempt {
  switch (status) {
    case 'ready':
      return READY_ATTEMPT
    case 'sending':
    case 'uncertain':
      return { ...READY_ATTEMPT, status, sendBy: SENT_BY }
    default:
      return { ...READY_ATTEMPT, status, sendBy: SENT_BY, seen: true }
  }
}

const EVENTS: Record<string, VenueOrderEvent> = {
  committed: { type: 'committed', now: T0 },
  placed: { type: 'placed', order: venueOrder('open') },
  rejected: { type: 'rejected', reason: 'no margin' },
  notSent: { type: 'notSent' },
  uncertain: { type: 'uncertain' },
  seen: { type: 'seen', order: venueOrder('partially_filled') },
  'notSeen (in window)': { type: 'notSeen', now: T0 + 1_000 },
  'notSeen (window closed)': {
    type: 'notSeen',
    now: T0 + NEVER_PLACED_AFTER_MS + 1,
  },
  cancelRequested: { type: 'cancelRequested' },
  expired: { type: 'expired' },
}

const X = null
type Row = readonly (VenueOrderAttemptStatus | null)[]
/** Columns in the order of EVENTS; null: not allowed. */
const TABLE: Record<VenueOrderAttemptStatus, Row> = {
  // prettier-ignore
  ready: [
    'sending',
    X,
    'rejected',
    X,
    X,
    'partially_filled',
    'ready',
    'ready',
    'cancelled',
    'expired',
  ],
  sending: [
    X,
    'open',
    'rejected',
    'ready',
    'uncertain',
    'partially_filled',
    'uncertain',
    'ready',
    'sending',
    'sending',
  ],
  uncertain: [
    X,
    X,
    X,
    X,
    X,
    'partially_filled',
    'uncertain',
    'ready',
    'uncertain',
    'uncertain',
  ],
  open: [
    X,
    X,
    X,
    X,
    X,
    'partially_filled',
    'uncertain',
    'uncertain',
    'open',
    'open',
  ],
  partially_filled: [
    X,
    X,
    X,
    X,
    X,
    'partially_filled',
    'uncertain',
    'uncertain',
    'partially_filled',
    'partially_filled',
  ],
  filled: [X, X, X, X, X, X, X, X, X, X],
  cancelled: [X, X, X, X, X, X, X, X, X, X],
  expired: [X, X, X, X, X, X, X, X, X, X],
  rejected: [X, X, X, X, X, X, X, X, X, X],
}

describe('venueOrderMachine', () => {
  const cases = Object.entries(TABLE).flatMap(([from, row]) =>
    Object.keys(EVENTS).map((event, i) => ({
      from: from as VenueOrderAttemptStatus,
      event,
      to: row[i] ?? null,
    })),
  )
  test.each(cases)('table: $from + $event → $to', ({ from, event, to }) => {
    const next = venueOrderMachine(
      attemptIn(from),
      EVENTS[event] as VenueOrderEvent,
    )
    expect(next === null ? null : next.status).toBe(to)
  })

  test('behavior: committed signs the send window into the attempt', () => {
    const next = venueOrderMachine(READY_ATTEMPT, {
      type: 'committed',
      now: T0,
    })
    expect(next?.sendBy).toBe(T0 + SEND_WINDOW_MS)
    // a venue's own window
    expect(
      venueOrderMachine(READY_ATTEMPT, {
        type: 'committed',
        now: T0,
        windowMs: 6_000,
      })?.sendBy,
    ).toBe(T0 + 6_000)
  })

  test('behavior: notSent clears the deadline, so it may go again at once', () => {
    const next = venueOrderMachine(attemptIn('sending'), { type: 'notSent' })
    expect(next).toMatchObject({ status: 'ready', sendBy: null })
  })

  test('behavior: never placed only once the window closed plus its margin', () => {
    const edge = SENT_BY + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS
    const at = (now: number) =>
      venueOrderMachine(attemptIn('uncertain'), { type: 'notSeen', now })
        ?.status
    expect(at(edge)).toBe('uncertain')
    expect(at(edge + 1)).toBe('ready')
  })

  /** a lookup answered at venue time `venue` (a Date: whole seconds) */
  const timed = (now: number, venue: number, lag = 5_000) =>
    ({
      type: 'notSeen',
      now,
      venueTimeAtLeast: Math.floor(venue / 1000) * 1000,
      visibilityLagMs: lag,
    }) as const

  test("behavior: by the venue's clock, never placed once its answer is past the deadline and lag, with no skew allowance", () => {
    const edge = SENT_BY + 5_000
    const at = (now: number, venue: number) =>
      venueOrderMachine(attemptIn('uncertain'), timed(now, venue))?.status
    // a Date of the edge's second may have been produced at the edge
    expect(at(edge + 999, edge)).toBe('uncertain')
    expect(at(edge + 1_000, edge + 1_000)).toBe('ready')
    // our clock must be past the edge too: a Date running ahead is not enough
    expect(at(edge, edge + 60_000)).toBe('uncertain')
    expect(at(edge + 1, edge + 60_000)).toBe('ready')
    // a venue clock behind ours holds it until the venue is past the edge
    expect(at(edge + 30_000, edge - 1)).toBe('uncertain')
  })

  test('behavior: a lookup timed by the venue without a lag uses the default one', () => {
    const edge = SENT_BY + DEFAULT_VISIBILITY_LAG_MS
    const e = (venue: number) => {
      const { visibilityLagMs: _, ...rest } = timed(edge + 5_000, venue)
      return rest
    }
    expect(venueOrderMachine(attemptIn('uncertain'), e(edge))?.status).toBe(
      'uncertain',
    )
    expect(
      venueOrderMachine(attemptIn('uncertain'), e(edge + 1_000))?.status,
    ).toBe('ready')
  })

  test('behavior: the next look that may prove it: the second after the edge on both clocks', () => {
    const edge = SENT_BY + 5_000
    const a = attemptIn('uncertain')
    // clocks agree: the next whole second past the edge
    expect(neverPlacedProvableAt(a, timed(T0 + 1_000, T0 + 1_000))).toBe(
      edge + 1_000,
    )
    // the venue 20 s behind: 20 s later on our clock
    expect(neverPlacedProvableAt(a, timed(T0, T0 - 20_000))).toBe(edge + 21_000)
    // the venue ahead: as soon as our clock is past the edge
    expect(neverPlacedProvableAt(a, timed(T0, edge + 60_000))).toBe(edge + 1)
    // far behind: our clock's own rule comes first
    expect(neverPlacedProvableAt(a, timed(T0, T0 - 600_000))).toBe(
      SENT_BY + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS + 1,
    )
    expect(neverPlacedProvableAt(a, { type: 'notSeen', now: T0 })).toBe(
      SENT_BY + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS + 1,
    )
    expect(
      neverPlacedProvableAt({ ...a, seen: true }, timed(T0, T0)),
    ).toBeNull()
  })

  test('lookupMayResend: past the deadline and lag, for an order that would go again', () => {
    const a = attemptIn('uncertain')
    const edge = SENT_BY + DEFAULT_VISIBILITY_LAG_MS
    expect(lookupMayResend(a, edge)).toBe(false)
    expect(lookupMayResend(a, edge + 1)).toBe(true)
    // the venue's own lag
    expect(lookupMayResend(a, SENT_BY + 5_001, 5_000)).toBe(true)
    // shown at the venue, past its own deadline, or cancelled: a proof
    // sends nothing, so the lookup is a read like any other
    expect(lookupMayResend({ ...a, seen: true }, edge + 1)).toBe(false)
    expect(lookupMayResend({ ...a, expired: true }, edge + 1)).toBe(false)
    expect(lookupMayResend({ ...a, cancelRequested: true }, edge + 1)).toBe(
      false,
    )
    expect(lookupMayResend(READY_ATTEMPT, edge + 1)).toBe(false)
  })

  test('lookupAtEdge: a lookup due just before the never-placed edge waits for the first whole second past it', () => {
    const a = attemptIn('uncertain')
    const edge = SENT_BY + DEFAULT_VISIBILITY_LAG_MS
    const firstProvable = Math.floor(edge / 1000) * 1000 + 1000
    expect(lookupAtEdge(a, edge - 500)).toBe(firstProvable)
    expect(lookupAtEdge(a, edge)).toBe(firstProvable)
    // far from it: looked up as due (the venue may show what it took)
    expect(lookupAtEdge(a, firstProvable - EDGE_WAIT_MS - 1)).toBeNull()
    // past it by our clock: a venue clock ahead may prove it now
    expect(lookupAtEdge(a, edge + 1)).toBeNull()
    // nothing to prove: shown, never sent, or not uncertain
    expect(lookupAtEdge({ ...a, seen: true }, edge)).toBeNull()
    expect(lookupAtEdge({ ...a, sendBy: null }, edge)).toBeNull()
    expect(lookupAtEdge(attemptIn('open'), edge)).toBeNull()
  })

  test('property: lookupAtEdge never holds back a lookup that could prove a send never placed, and holds one back at most EDGE_WAIT_MS', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -30_000, max: 30_000 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.option(fc.integer({ min: -60_000, max: 60_000 })),
        (offset, lag, venueAhead) => {
          const a = attemptIn('uncertain')
          const now = SENT_BY + lag + offset
          const at = lookupAtEdge(a, now, lag)
          if (at === null) return
          expect(at).toBeGreaterThan(now)
          expect(at - now).toBeLessThanOrEqual(EDGE_WAIT_MS)
          // whatever the venue's clock, a "not found" asked now proves nothing
          const next = venueOrderMachine(
            a,
            venueAhead === null
              ? { type: 'notSeen', now }
              : {
                  type: 'notSeen',
                  now,
                  venueTimeAtLeast: now + venueAhead,
                  visibilityLagMs: lag,
                },
          )
          expect(next?.status).toBe('uncertain')
        },
      ),
    )
  })

  test('behavior: an order the venue showed is never taken as never placed', () => {
    const shown = { ...attemptIn('uncertain'), seen: true }
    const next = venueOrderMachine(shown, {
      type: 'notSeen',
      now: T0 + 10 * NEVER_PLACED_AFTER_MS,
    })
    expect(next?.status).toBe('uncertain')
  })

  test('behavior: a send with no deadline is never taken as never placed', () => {
    const next = venueOrderMachine(
      { ...attemptIn('uncertain'), sendBy: null },
      { type: 'notSeen', now: T0 + 10 * NEVER_PLACED_AFTER_MS },
    )
    expect(next?.status).toBe('uncertain')
  })

  test('behavior: never placed ends a cancelled or expired attempt there', () => {
    const late: VenueOrderEvent = {
      type: 'notSeen',
      now: T0 + NEVER_PLACED_AFTER_MS + 1,
    }
    const base = attemptIn('uncertain')
    expect(
      venueOrderMachine({ ...base, cancelRequested: true }, late)?.status,
    ).toBe('cancelled')
    expect(venueOrderMachine({ ...base, expired: true }, late)?.status).toBe(
      'expired',
    )
  })

  test('behavior: a venue cancel reads as expired only when past its deadline and unasked', () => {
    const cancelled: VenueOrderEvent = {
      type: 'seen',
      order: venueOrder('cancelled'),
    }
    const open = attemptIn('open')
    expect(venueOrderMachine(open, cancelled)?.status).toBe('cancelled')
    expect(
      venueOrderMachine({ ...open, expired: true }, cancelled)?.status,
    ).toBe('expired')
    expect(
      venueOrderMachine(
        { ...open, expired: true, cancelRequested: true },
        cancelled,
      )?.status,
    ).toBe('cancelled')
  })

  test('behavior: a venue reject keeps its reason', () => {
    const next = venueOrderMachine(attemptIn('sending'), {
      type: 'placed',
      order: venueOrder('rejected', 'post only would cross'),
    })
    expect(next).toMatchObject({
      status: 'rejected',
      reason: 'post only would cross',
      seen: true,
    })
  })

  test('behavior: a cancel is due for a live order asked to go or past its deadline', () => {
    expect(cancelDue(attemptIn('open'))).toBe(false)
    expect(cancelDue({ ...attemptIn('open'), cancelRequested: true })).toBe(
      true,
    )
    expect(cancelDue({ ...attemptIn('partially_filled'), expired: true })).toBe(
      true,
    )
    expect(cancelDue({ ...attemptIn('uncertain'), expired: true })).toBe(false)
  })
})

const arbEvent: fc.Arbitrary<(now: number) => VenueOrderEvent> = fc.oneof(
  fc.constant((now: number) => ({ type: 'committed', now }) as const),
  fc
    .constantFrom<VenueOrderState>(
      'open',
      'partially_filled',
      'filled',
      'cancelled',
      'expired',
      'rejected',
    )
    .chain((state) =>
      fc.constantFrom(
        () => ({ type: 'placed', order: venueOrder(state) }) as const,
        () => ({ type: 'seen', order: venueOrder(state) }) as const,
      ),
    ),
  fc.constant(() => ({ type: 'rejected', reason: 'refused' }) as const),
  fc.constant(() => ({ type: 'notSent' }) as const),
  fc.constant(() => ({ type: 'uncertain' }) as const),
  fc.constant((now: number) => ({ type: 'notSeen', now }) as const),
  // answered by a venue whose clock is off ours (a Date: whole seconds)
  fc
    .tuple(
      fc.integer({ min: -150_000, max: 150_000 }),
      fc.constantFrom(undefined, 0, 5_000, 10_000, 20_000),
    )
    .map(
      ([skew, lag]) =>
        (now: number) =>
          ({
            type: 'notSeen',
            now,
            venueTimeAtLeast: Math.floor((now + skew) / 1000) * 1000,
            ...(lag === undefined ? {} : { visibilityLagMs: lag }),
          }) as const,
    ),
  fc.constant(() => ({ type: 'cancelRequested' }) as const),
  fc.constant(() => ({ type: 'expired' }) as const),
)

describe('venueOrderMachine: at most once', () => {
  test('property: never ready while the venue time of the answer could still be at or before the deadline plus its lag', () => {
    fc.assert(
      fc.property(
        // when the lookup was made, and the venue's true time then
        fc.integer({ min: 0, max: 3 * NEVER_PLACED_AFTER_MS }),
        fc.integer({ min: -150_000, max: 150_000 }),
        fc.integer({ min: 0, max: 30_000 }),
        (after, skew, lag) => {
          const now = SENT_BY - SEND_WINDOW_MS + after
          const venue = now + skew
          const next = venueOrderMachine(attemptIn('uncertain'), {
            type: 'notSeen',
            now,
            venueTimeAtLeast: Math.floor(venue / 1000) * 1000,
            visibilityLagMs: lag,
          })
          if (
            next?.status === 'ready' &&
            now <= SENT_BY + NEVER_PLACED_AFTER_MS - SEND_WINDOW_MS
          ) {
            // the Date's second began past the edge: so did the answer
            expect(Math.floor(venue / 1000) * 1000).toBeGreaterThan(
              SENT_BY + lag,
            )
            expect(now).toBeGreaterThan(SENT_BY + lag)
          }
        },
      ),
      { numRuns: 5_000 },
    )
  })

  test('property: a look at neverPlacedProvableAt proves it when the venue clock keeps its skew', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: -60_000, max: 60_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (after, skew, lag) => {
          const a = attemptIn('uncertain')
          const look = (now: number) =>
            ({
              type: 'notSeen',
              now,
              venueTimeAtLeast: Math.floor((now + skew) / 1000) * 1000,
              visibilityLagMs: lag,
            }) as const
          const first = look(SENT_BY - SEND_WINDOW_MS + after)
          if (venueOrderMachine(a, first)?.status === 'ready') return
          const at = neverPlacedProvableAt(a, first)
          expect(at).not.toBeNull()
          expect(at).toBeGreaterThan(first.now)
          expect(venueOrderMachine(a, look(at ?? 0))?.status).toBe('ready')
        },
      ),
      { numRuns: 5_000 },
    )
  })

  test('property: a client order id goes out again only once nothing of it can be at the venue', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            arbEvent,
            // time moves on between events, sometimes past a send window
            fc.oneof(
              fc.integer({ min: 0, max: 5_000 }),
              fc.integer({ min: 0, max: 3 * NEVER_PLACED_AFTER_MS }),
            ),
          ),
          { maxLength: 60 },
        ),
        (steps) => {
          let a: VenueOrderAttempt = READY_ATTEMPT
          let now = T0
          let lastSend: number | null = null
          // since the last send: did the venue show it, did a notSent or a
          // closed window prove nothing of it is there
          let shown = false
          let provenAbsent = false
          for (const [make, dt] of steps) {
            now += dt
            const e = make(now)
            const next = venueOrderMachine(a, e)
            if (next === null) continue
            if (e.type === 'committed') {
              if (lastSend !== null) {
                expect(shown).toBe(false)
                expect(provenAbsent).toBe(true)
              }
              lastSend = now
              shown = false
              provenAbsent = false
            }
            if (e.type === 'placed' || e.type === 'seen') shown = true
            if (e.type === 'notSent') provenAbsent = true
            if (
              e.type === 'notSeen' &&
              next.status === 'ready' &&
              a.status !== 'ready'
            ) {
              // only after the deadline of the send and its margin on our
              // clock, or once every venue time the answer may have been
              // produced at ([Date, Date + 1 s)) and our clock are past
              // the deadline and the venue's lag
              expect(lastSend).not.toBeNull()
              const sendBy = (lastSend ?? 0) + SEND_WINDOW_MS
              const edge =
                sendBy + (e.visibilityLagMs ?? DEFAULT_VISIBILITY_LAG_MS)
              const byOurs = now > (lastSend ?? 0) + NEVER_PLACED_AFTER_MS
              const byVenue =
                e.venueTimeAtLeast !== undefined &&
                e.venueTimeAtLeast > edge &&
                now > edge
              expect(byOurs || byVenue).toBe(true)
              provenAbsent = true
            }
            a = next
          }
        },
      ),
      { numRuns: 2_000 },
    )
  })

  test('property: a final attempt takes no event', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<VenueOrderAttemptStatus>(
          'filled',
          'cancelled',
          'expired',
          'rejected',
        ),
        arbEvent,
        (status, make) => {
          expect(venueOrderMachine(attemptIn(status), make(T0))).toBeNull()
        },
      ),
    )
  })
})
