import { ApiRequestError, apiRequest } from '../shared/apiRequest.js'
import { explainSignRequest } from './explain.js'
import { resetProgress, setProgress, showBatch } from './progress.js'
import { askWallet, hideCard } from './signCard.js'
import type { BindingTarget, SignRequest, VenueBindingBatch } from './types.js'
import { type Eip1193Provider, personalSign, signTypedData } from './wallet.js'
import { newNonce, secondsFromNow, walletMessage } from './walletMessage.js'

/** Who signs, and the label every wallet message names. */
export interface Signer {
  readonly provider: Eip1193Provider
  /** lowercased */
  readonly address: string
  /** BINDING_AUTH_DOMAIN of this service */
  readonly domain: string
}

const FINAL = ['bound', 'partial_success', 'failed']
const POLL_MS = 1000
/** give up following after this long (a venue may stay confirming) */
const FOLLOW_MS = 10 * 60_000

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The wallet's answer to one venue sign request, exactly as returned. */
function signVenueRequest(s: Signer, r: SignRequest): Promise<string> {
  return r.method === 'personal_sign'
    ? personalSign(s.provider, s.address, r.payload.message)
    : signTypedData(s.provider, s.address, r.payload)
}

/** A wallet-signed read (`action`) of `{owner, ...names, expiresAt}`. */
export async function walletReadHeaders(
  s: Signer,
  action: string,
  names: Readonly<Record<string, string>>,
  explanation: { title: string; allows: string },
): Promise<{ headers: Record<string, string>; expiresAt: number }> {
  const expiresAt = secondsFromNow(280)
  const message = walletMessage(s.domain, action, {
    owner: s.address,
    ...names,
    expiresAt,
  })
  const signature = await askWallet(
    {
      ...explanation,
      cannot:
        'It is not a transaction and authorizes nothing else: it expires in under 5 minutes and cannot trade or move funds.',
    },
    () => personalSign(s.provider, s.address, message),
  )
  return {
    expiresAt,
    headers: {
      'x-wallet-address': s.address,
      'x-wallet-expires-at': String(expiresAt),
      'x-wallet-signature': signature,
    },
  }
}

/** Submits with one Idempotency-Key, sent again as is if the answer is lost. */
async function submit(
  bindingId: string,
  signatures: { requestId: string; signature: string }[],
): Promise<VenueBindingBatch> {
  const key = crypto.randomUUID()
  for (let attempt = 1; ; attempt++) {
    try {
      return await apiRequest<VenueBindingBatch>(
        'POST',
        `v1/venue-bindings/${bindingId}/submit`,
        { body: { signatures }, headers: { 'idempotency-key': key } },
      )
    } catch (err) {
      const lost = err instanceof ApiRequestError && err.code === 'network'
      if (!lost || attempt === 3) throw err
      await sleep(1000 * attempt)
    }
  }
}

/**
 * The contract's binding flow from a browser wallet: sign the prepare
 * authorization, prepare, sign each returned request (each explained
 * first), submit them together, then follow the batch with signed reads
 * until every venue settled. Nothing is submitted unless every signature
 * was given. Throws StoppedError when the person stops after declining.
 */
export async function bindFromBrowser(
  s: Signer,
  targets: readonly BindingTarget[],
): Promise<VenueBindingBatch> {
  resetProgress(targets.map((t) => t.venue))
  const nonce = newNonce()
  const expiresAt = secondsFromNow(280)
  const payload = { owner: s.address, venues: targets, nonce, expiresAt }
  const names = targets.map((t) => t.venue).join(', ')
  const signature = await askWallet(
    {
      title: 'Start binding',
      allows: `Proves you own this address and asks the service to prepare bindings for: ${names}. The service then makes a trading key for each venue and shows you what each venue needs you to sign.`,
      cannot:
        'It is not a transaction: nothing is approved at any venue yet, and it cannot trade or move funds.',
    },
    () =>
      personalSign(
        s.provider,
        s.address,
        walletMessage(s.domain, 'prepare', payload),
      ),
  )
  let batch = await apiRequest<VenueBindingBatch>(
    'POST',
    'v1/venue-bindings/prepare',
    {
      body: {
        owner: s.address,
        venues: targets,
        authorization: { nonce, expiresAt, signature },
      },
    },
  )
  showBatch(batch)

  const requests = batch.signRequests
  const signatures: { requestId: string; signature: string }[] = []
  for (const [i, r] of requests.entries()) {
    setProgress(
      r.venue,
      'awaiting_signature',
      `signature ${i + 1} of ${requests.length}`,
    )
    signatures.push({
      requestId: r.requestId,
      signature: await askWallet(explainSignRequest(r), () =>
        signVenueRequest(s, r),
      ),
    })
    if (!requests.slice(i + 1).some((next) => next.venue === r.venue)) {
      setProgress(r.venue, 'signed')
    }
  }
  if (signatures.length > 0) {
    batch = await submit(batch.bindingId, signatures)
    showBatch(batch)
  }
  return follow(s, batch)
}

/** Signed reads of the batch until it settles (one read signature a 4½ min). */
async function follow(
  s: Signer,
  start: VenueBindingBatch,
): Promise<VenueBindingBatch> {
  let batch = start
  let read: { headers: Record<string, string>; expiresAt: number } | undefined
  const until = Date.now() + FOLLOW_MS
  while (!FINAL.includes(batch.status) && Date.now() < until) {
    if (
      batch.status === 'awaiting_signatures' &&
      Date.parse(batch.expiresAt) < Date.now()
    ) {
      break
    }
    if (!read || read.expiresAt - secondsFromNow(0) < 20) {
      read = await walletReadHeaders(
        s,
        'read',
        { bindingId: batch.bindingId },
        {
          title: 'Follow the progress',
          allows:
            "Lets this page read your binding's progress from the service for the next few minutes.",
        },
      )
      hideCard()
    }
    await sleep(POLL_MS)
    batch = await apiRequest<VenueBindingBatch>(
      'GET',
      `v1/venue-bindings/${batch.bindingId}`,
      { headers: read.headers },
    )
    showBatch(batch)
  }
  hideCard()
  return batch
}
