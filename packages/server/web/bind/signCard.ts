import { byId, el } from './dom.js'
import type { Explanation } from './explain.js'
import { isRejection } from './wallet.js'

/** The person stopped the flow after declining a signature. */
export class StoppedError extends Error {
  override readonly name = 'StoppedError'
  constructor() {
    super('you declined a signature; nothing was bound')
  }
}

function render(e: Explanation, status: HTMLElement, ...extra: Node[]) {
  const card = byId('sign-card')
  card.replaceChildren(
    el('h3', {}, e.title),
    el('p', {}, el('strong', {}, 'What it allows: '), e.allows),
    el(
      'p',
      { class: 'cannot' },
      el('strong', {}, 'What it cannot do: '),
      e.cannot,
    ),
    status,
    ...extra,
  )
  card.hidden = false
  card.scrollIntoView?.({ block: 'nearest' })
}

/** Until the person answers the declined card: ask again (true) or stop. */
function declined(e: Explanation): Promise<boolean> {
  return new Promise((resolve) => {
    const again = el(
      'button',
      { type: 'button', id: 'sign-retry' },
      'Ask again',
    )
    const stop = el(
      'button',
      { type: 'button', id: 'sign-stop', class: 'secondary' },
      'Stop',
    )
    again.addEventListener('click', () => resolve(true), { once: true })
    stop.addEventListener('click', () => resolve(false), { once: true })
    render(
      e,
      el(
        'p',
        { class: 'declined', role: 'status' },
        'You declined this signature in your wallet. Nothing was sent for it, and no venue is bound until every signature is given.',
      ),
      again,
      stop,
    )
  })
}

/**
 * Shows what a signature does, then asks the wallet. A declined signature
 * (EIP-1193 4001) waits for the person: ask again, or stop (StoppedError).
 */
export async function askWallet<T>(
  e: Explanation,
  call: () => Promise<T>,
): Promise<T> {
  for (;;) {
    render(
      e,
      el(
        'p',
        { class: 'waiting', role: 'status' },
        'Waiting for your wallet: check its window and approve to continue.',
      ),
    )
    try {
      return await call()
    } catch (err) {
      if (!isRejection(err)) throw err
      if (!(await declined(e))) throw new StoppedError()
    }
  }
}

export function hideCard(): void {
  const card = byId('sign-card')
  card.hidden = true
  card.replaceChildren()
}
