import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { VenueOrder, VenueOrderState } from '../ports/venueAdapter.js'
import { NEVER_PLACED_AFTER_MS, SEND_WINDOW_MS } from './sendWindow.js'
import {
  cancelDue,
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
  fc.constant(() => ({ type: 'cancelRequested' }) as const),
  fc.constant(() => ({ type: 'expired' }) as const),
)

describe('venueOrderMachine: at most once', () => {
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
              // only after the deadline of the send and its margin
              expect(lastSend).not.toBeNull()
              expect(now).toBeGreaterThan(
                (lastSend ?? 0) + NEVER_PLACED_AFTER_MS,
              )
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
