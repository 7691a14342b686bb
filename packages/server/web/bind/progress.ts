import { byId, el } from './dom.js'
import { VENUE_NAMES, type Venue, type VenueBindingBatch } from './types.js'

/** What the page shows for one venue. */
export type RowState =
  | 'preparing'
  | 'awaiting_signature'
  | 'signed'
  | 'submitted'
  | 'confirming'
  | 'bound'
  | 'already_bound'
  | 'failed'
  | 'expired'
  | 'stopped'

const LABEL: Readonly<Record<RowState, string>> = {
  preparing: 'Preparing',
  awaiting_signature: 'Awaiting your signature',
  signed: 'Signed',
  submitted: 'Submitted',
  confirming: 'Submitted, confirming',
  bound: 'Bound',
  already_bound: 'Already bound',
  failed: 'Failed',
  expired: 'Expired',
  stopped: 'Stopped',
}

const REASONS: Readonly<Record<string, string>> = {
  venue_account_not_found: 'the venue has no account for this wallet',
  account_not_owned: 'the account belongs to another address',
  invalid_signing_chain: 'signed for the wrong chain: bind again',
  venue_rejected: 'the venue refused the authorization',
}

function row(venue: Venue): HTMLTableRowElement {
  const body = byId('progress').querySelector('tbody') as HTMLElement
  let tr = body.querySelector<HTMLTableRowElement>(`tr[data-venue="${venue}"]`)
  if (!tr) {
    tr = el(
      'tr',
      { 'data-venue': venue },
      el('td', {}, VENUE_NAMES[venue]),
      el('td', { class: 'state' }),
      el('td', { class: 'detail' }),
    )
    body.append(tr)
  }
  return tr
}

/** Starts the table over with these venues, all `preparing`. */
export function resetProgress(venues: readonly Venue[]): void {
  ;(byId('progress').querySelector('tbody') as HTMLElement).replaceChildren()
  for (const v of venues) setProgress(v, 'preparing')
}

export function setProgress(venue: Venue, state: RowState, detail = ''): void {
  const tr = row(venue)
  tr.dataset.state = state
  ;(tr.querySelector('.state') as HTMLElement).textContent = LABEL[state]
  ;(tr.querySelector('.detail') as HTMLElement).textContent = detail
}

export function progressOf(venue: Venue): RowState | undefined {
  return row(venue).dataset.state as RowState | undefined
}

/** Each venue's row from the service's view of the batch. */
export function showBatch(batch: VenueBindingBatch): void {
  for (const r of batch.results) {
    const reason = r.code ? (REASONS[r.code] ?? r.code) : ''
    switch (r.status) {
      case 'awaiting_signatures':
        if (progressOf(r.venue) !== 'signed')
          setProgress(r.venue, 'awaiting_signature')
        break
      case 'queued':
        setProgress(
          r.venue,
          'submitted',
          'queued: the service sends it to the venue',
        )
        break
      case 'confirming':
        setProgress(r.venue, 'confirming', 'the venue is confirming it')
        break
      case 'bound':
        setProgress(r.venue, 'bound', 'ready to trade')
        break
      case 'already_bound':
        setProgress(r.venue, 'already_bound', 'nothing to sign')
        break
      case 'failed':
        setProgress(
          r.venue,
          'failed',
          `${reason}${r.code && reason !== r.code ? ` (${r.code})` : ''}${r.retryable ? '; you can try again' : ''}`,
        )
        break
      case 'expired':
        setProgress(r.venue, 'expired', 'not signed in time: bind again')
        break
    }
  }
}
