import { ApiRequestError } from '../shared/apiRequest.js'
import { WalletError } from './wallet.js'

/** The element with `id`; the page's HTML always has it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new Error(`the page has no #${id}`)
  return found as T
}

/** A new element with text children (never parsed as HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Readonly<Record<string, string>> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  node.append(...children)
  return node
}

/** What to do about some error codes, in plain words. */
const HINTS: Readonly<Record<string, string>> = {
  venue_account_not_found:
    'The venue has no account for this wallet yet: deposit there first (on a local `dn up`, use `dn faucet`), then try again.',
  account_not_owned:
    'That Lighter account belongs to another address: look up your accounts again and pick one of yours.',
  rebind_required:
    'A binding exists but no longer works: tick "Replace a binding that no longer works" and bind again.',
  rebind_blocked:
    'Open tasks or orders use the current binding: close them before replacing it.',
  authorization_expired:
    'The signature is too old: start again and sign a little faster.',
  prepare_rate_limited:
    'Too many binding attempts for this wallet: wait a few minutes.',
  insufficient_bound_venues: 'An API key needs at least two bound venues.',
  binding_unavailable:
    'This deployment has venue binding switched off: ask its operator.',
  venue_account_check_unavailable:
    'The venue could not be asked right now (this does not mean the account is missing): try again shortly.',
}

/** One line for any failure: the service's message and code, or the wallet's. */
export function describeError(err: unknown): string {
  if (err instanceof ApiRequestError) {
    const status = err.status === 0 ? '' : `, HTTP ${err.status}`
    const hint = HINTS[err.code]
    return `${err.message} (code ${err.code}${status}).${hint ? ` ${hint}` : ''}`
  }
  if (err instanceof WalletError) {
    return `Your wallet answered: ${err.message}${err.code === undefined ? '' : ` (code ${err.code})`}`
  }
  return err instanceof Error ? err.message : String(err)
}

/** The page's one alert line: an error (red) or a notice. */
export function showAlert(text: string, kind: 'error' | 'info' = 'error') {
  const alert = byId('alert')
  alert.textContent = text
  alert.className = kind === 'info' ? 'alert info' : 'alert'
  alert.hidden = false
  alert.scrollIntoView?.({ block: 'nearest' })
}

export function clearAlert(): void {
  const alert = byId('alert')
  alert.hidden = true
  alert.textContent = ''
}
