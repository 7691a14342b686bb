import { byId, el } from './dom.js'
import {
  type BindingTarget,
  isLighter,
  VENUE_NAMES,
  VENUES,
  type Venue,
  type VenueAccountList,
} from './types.js'

const WHAT: Readonly<Record<Venue, string>> = {
  hl: 'approves a trading agent',
  aster: 'approves a perp-only trading agent',
  lighter: 'registers an API key on your account',
  'lighter-mainnet': 'registers an API key on your account',
}

/** The venue checkboxes; Lighter rows get an account picker, empty until looked up. */
export function renderVenues(): void {
  byId('venue-list').replaceChildren(
    ...VENUES.map((v) =>
      el(
        'div',
        { class: 'venue', 'data-venue': v },
        el(
          'label',
          { class: 'name' },
          el('input', {
            type: 'checkbox',
            name: 'venue',
            value: v,
            checked: '',
          }),
          ` ${VENUE_NAMES[v]}`,
        ),
        el('span', { class: 'what' }, WHAT[v]),
        ...(isLighter(v)
          ? [
              el(
                'label',
                { class: 'account' },
                'Account ',
                el(
                  'select',
                  { id: `account-${v}`, disabled: '' },
                  el('option', { value: '' }, 'look up first'),
                ),
              ),
              el('span', { class: 'account-note', id: `note-${v}` }),
            ]
          : []),
      ),
    ),
  )
}

/** Fills the Lighter pickers from the look-up; a venue without accounts is unticked. */
export function showAccounts(list: VenueAccountList): void {
  for (const a of list.venues) {
    if (!isLighter(a.venue)) continue
    const select = byId<HTMLSelectElement>(`account-${a.venue}`)
    const note = byId(`note-${a.venue}`)
    const box = document.querySelector<HTMLInputElement>(
      `input[name="venue"][value="${a.venue}"]`,
    )
    if (a.status === 'found') {
      select.replaceChildren(
        ...a.accountIndexes.map((i) =>
          el('option', { value: String(i) }, `#${i}`),
        ),
      )
      select.disabled = false
      note.textContent =
        a.accountIndexes.length === 1
          ? `your account is #${a.accountIndexes[0]}`
          : `${a.accountIndexes.length} accounts: pick one`
      continue
    }
    select.replaceChildren(el('option', { value: '' }, 'none'))
    select.disabled = true
    if (box) box.checked = a.status !== 'missing' && box.checked
    note.textContent =
      a.status === 'missing'
        ? 'no account for this address: deposit on Lighter first'
        : 'Lighter could not be asked now (not the same as missing): look up again'
  }
}

/** The ticked venues as binding targets, or what is missing to bind them. */
export function chosenTargets(
  rebind: boolean,
  hlChainId: number,
): BindingTarget[] | string {
  const ticked = Array.from(
    document.querySelectorAll<HTMLInputElement>('input[name="venue"]'),
  )
    .filter((i) => i.checked)
    .map((i) => i.value as Venue)
  if (ticked.length === 0) return 'Choose at least one venue.'
  const targets: BindingTarget[] = []
  for (const venue of ticked) {
    const again = rebind ? { rebind: true } : {}
    if (isLighter(venue)) {
      const index = byId<HTMLSelectElement>(`account-${venue}`).value
      if (index === '') {
        return `${VENUE_NAMES[venue]} needs an account: look up your Lighter accounts first, or untick it.`
      }
      targets.push({ venue, accountIndex: Number(index), ...again })
    } else if (venue === 'hl') {
      // Hyperliquid takes the signature on whatever chain the wallet is on
      targets.push({ venue, signatureChainId: hlChainId, ...again })
    } else {
      targets.push({ venue, ...again })
    }
  }
  return targets
}
