import { apiRequest } from '../shared/apiRequest.js'
import type { Signer } from './bindFlow.js'
import { byId, clearAlert, describeError, el, showAlert } from './dom.js'
import { askWallet, hideCard, StoppedError } from './signCard.js'
import { type CreatedApiKey, VENUE_NAMES, type Venue } from './types.js'
import { personalSign } from './wallet.js'
import { newNonce, secondsFromNow, walletMessage } from './walletMessage.js'

/** Shows the key step with the venues bound (checked by default). */
export function offerApiKey(bound: readonly Venue[]): void {
  byId('key-venues').replaceChildren(
    ...bound.map((v) =>
      el(
        'label',
        { class: 'venue' },
        el('input', {
          type: 'checkbox',
          name: 'key-venue',
          value: v,
          checked: '',
        }),
        ` ${VENUE_NAMES[v]}`,
      ),
    ),
  )
  byId('key-step').hidden = false
}

function chosenVenues(): Venue[] {
  return Array.from(
    document.querySelectorAll<HTMLInputElement>('input[name="key-venue"]'),
  )
    .filter((i) => i.checked)
    .map((i) => i.value as Venue)
}

/**
 * Creates a key signed by the wallet (`create_api_key`) and shows its
 * secret once. The secret lives only in the page's text until hidden; it
 * is never written to storage, a cookie or the URL.
 */
export async function createApiKey(s: Signer): Promise<void> {
  clearAlert()
  const venues = chosenVenues()
  const maxSizeUsd = Number(byId<HTMLInputElement>('max-size').value)
  const label = byId<HTMLInputElement>('key-label').value.trim()
  if (venues.length < 2) {
    showAlert('Choose at least two bound venues for the key.')
    return
  }
  if (!(maxSizeUsd > 0)) {
    showAlert('Enter the largest size per order or leg, in USD (above 0).')
    return
  }
  const button = byId<HTMLButtonElement>('create-key')
  button.disabled = true
  try {
    const nonce = newNonce()
    const expiresAt = secondsFromNow(280)
    const payload = {
      owner: s.address,
      venues,
      maxSizeUsd,
      label: label === '' ? null : label,
      nonce,
      expiresAt,
    }
    byId('sign-step').hidden = false
    const signature = await askWallet(
      {
        title: 'Create an API key',
        allows: `Creates a key that lets programs trade through this service on ${venues.map((v) => VENUE_NAMES[v]).join(', ')}, up to USD ${maxSizeUsd} per order or leg. You can revoke it at any time.`,
        cannot:
          'The key cannot withdraw or transfer funds, and cannot bind or change venues.',
      },
      () =>
        personalSign(
          s.provider,
          s.address,
          walletMessage(s.domain, 'create_api_key', payload),
        ),
    )
    hideCard()
    const created = await apiRequest<CreatedApiKey>('POST', 'v1/api-keys', {
      body: {
        owner: s.address,
        venues,
        maxSizeUsd,
        ...(label === '' ? {} : { label }),
        authorization: { nonce, expiresAt, signature },
      },
    })
    showSecret(created.apiKey)
  } catch (err) {
    hideCard()
    showAlert(
      err instanceof StoppedError
        ? 'You declined the signature: no key was created.'
        : `Could not create the key: ${describeError(err)}`,
      err instanceof StoppedError ? 'info' : 'error',
    )
  } finally {
    button.disabled = false
  }
}

function showSecret(secret: string): void {
  byId('secret').textContent = secret
  byId('copy-status').textContent = ''
  byId('secret-box').hidden = false
}

/** Copies the shown secret to the clipboard. */
export async function copySecret(): Promise<void> {
  const status = byId('copy-status')
  try {
    await navigator.clipboard.writeText(byId('secret').textContent ?? '')
    status.textContent = 'Copied.'
  } catch {
    status.textContent =
      'The browser did not allow copying: select the key and copy it by hand.'
  }
}

/** Removes the secret from the page for good. */
export function hideSecret(): void {
  byId('secret').textContent = ''
  byId('secret-box').hidden = true
}
