import { apiRequest } from '../shared/apiRequest.js'
import {
  copySecret,
  createApiKey,
  hideSecret,
  offerApiKey,
} from './apiKeyStep.js'
import { bindFromBrowser, type Signer, walletReadHeaders } from './bindFlow.js'
import { byId, clearAlert, describeError, showAlert } from './dom.js'
import { progressOf, type RowState, setProgress } from './progress.js'
import { hideCard, StoppedError } from './signCard.js'
import type { VenueAccountList } from './types.js'
import { chosenTargets, renderVenues, showAccounts } from './venuePicker.js'
import {
  chainIdOf,
  type Eip1193Provider,
  injectedProvider,
  requestAddress,
} from './wallet.js'

const NO_WALLET =
  'No browser wallet found. Install or enable a wallet extension (for example MetaMask or Rabby) in this browser, then reload this page.'

const domain =
  document
    .querySelector<HTMLMetaElement>('meta[name="dn-auth-domain"]')
    ?.getAttribute('content') ?? 'dn'

let signer: Signer | undefined

/** Rows the service already has: they keep their state after a failure. */
const SENT: readonly RowState[] = [
  'submitted',
  'confirming',
  'bound',
  'already_bound',
  'failed',
  'expired',
]

const STEPS = ['connect', 'lookup', 'bind', 'create-key']

/**
 * Runs a step with every step button disabled (one wallet prompt at a
 * time); any failure goes to the alert with its message and code.
 */
function step(id: string, run: () => Promise<void>): void {
  byId(id).addEventListener('click', async () => {
    const buttons = STEPS.map((s) => byId<HTMLButtonElement>(s))
    for (const b of buttons) b.disabled = true
    clearAlert()
    try {
      await run()
    } catch (err) {
      hideCard()
      showAlert(describeError(err))
    } finally {
      for (const b of buttons) b.disabled = false
    }
  })
}

let watching = false

/** A different account in the wallet is a different owner: start over. */
function watchAccounts(provider: Eip1193Provider): void {
  if (watching) return
  watching = true
  provider.on?.('accountsChanged', () => {
    signer = undefined
    byId('wallet-status').textContent =
      'The wallet switched accounts: connect again.'
    byId('connect').textContent = 'Connect wallet'
    for (const id of ['venue-step', 'sign-step', 'key-step'])
      byId(id).hidden = true
    hideSecret()
  })
}

async function connect(): Promise<void> {
  const provider = injectedProvider()
  if (!provider) {
    showAlert(NO_WALLET)
    return
  }
  const address = await requestAddress(provider)
  signer = { provider, address, domain }
  byId('wallet-status').textContent = `Connected: ${address}`
  byId('connect').textContent = 'Reconnect'
  renderVenues()
  byId('venue-step').hidden = false
  watchAccounts(provider)
}

async function lookUpAccounts(s: Signer): Promise<void> {
  byId('sign-step').hidden = false
  const { headers } = await walletReadHeaders(
    s,
    'list_venue_accounts',
    {},
    {
      title: 'Look up your Lighter accounts',
      allows:
        'Lets this page ask the service which Lighter accounts belong to your address.',
    },
  )
  hideCard()
  showAccounts(
    await apiRequest<VenueAccountList>('GET', 'v1/venue-accounts', {
      headers,
    }),
  )
}

async function bind(s: Signer): Promise<void> {
  const targets = chosenTargets(
    byId<HTMLInputElement>('rebind').checked,
    await chainIdOf(s.provider),
  )
  if (typeof targets === 'string') {
    showAlert(targets)
    return
  }
  byId('key-step').hidden = true
  byId('sign-step').hidden = false
  try {
    const batch = await bindFromBrowser(s, targets)
    const bound = batch.results
      .filter((r) => r.status === 'bound' || r.status === 'already_bound')
      .map((r) => r.venue)
    if (bound.length > 0) offerApiKey(bound)
    if (bound.length < targets.length) {
      showAlert(
        `Binding ended ${batch.status.replace('_', ' ')}: ${bound.length} of ${targets.length} venues bound. See each venue's details above; you can bind the others again.`,
        'info',
      )
    }
  } catch (err) {
    const stopped = err instanceof StoppedError
    // a venue not submitted yet is not bound by this attempt
    for (const t of targets) {
      if (SENT.includes(progressOf(t.venue) ?? 'preparing')) continue
      setProgress(
        t.venue,
        stopped ? 'stopped' : 'failed',
        stopped ? 'nothing bound' : 'not bound',
      )
    }
    if (!stopped) throw err
    hideCard()
    showAlert(
      'You declined a signature, so binding stopped and nothing was bound. Bind again whenever you are ready.',
      'info',
    )
  }
}

function needSigner(): Signer {
  if (!signer) throw new Error('Connect your wallet first.')
  return signer
}

if (!injectedProvider()) {
  showAlert(NO_WALLET)
  // a wallet that injects itself late says so with this event
  window.addEventListener('ethereum#initialized', clearAlert, { once: true })
}
step('connect', connect)
step('lookup', () => lookUpAccounts(needSigner()))
step('bind', () => bind(needSigner()))
step('create-key', () => createApiKey(needSigner()))
byId('copy-secret').addEventListener('click', () => void copySecret())
byId('hide-secret').addEventListener('click', hideSecret)
