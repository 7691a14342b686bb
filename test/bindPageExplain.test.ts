import { walletMessage as coreWalletMessage } from '@dn/core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { explainSignRequest } from '../packages/server/web/bind/explain.js'
import type { SignRequest } from '../packages/server/web/bind/types.js'
import {
  newNonce,
  walletMessage,
} from '../packages/server/web/bind/walletMessage.js'
import {
  allTargets,
  type BindingBed,
  BUILDER,
  prepared,
  startBindingBed,
} from './support/bindingFixtures.js'
import { newWallet } from './support/wallet.js'

/**
 * The /bind page's pure helpers against what the service really issues:
 * the wallet message it signs is the one core verifies, and each sign
 * request of all four venues (fee approvals on) gets a complete plain
 * explanation.
 */
describe('/bind page helpers', () => {
  let bed: BindingBed
  beforeAll(async () => {
    bed = await startBindingBed({ dialect: 'sqlite' })
  })
  afterAll(async () => {
    await bed?.close()
  })

  test('default: the page signs the message core verifies', () => {
    const payload = {
      owner: '0xabc',
      venues: [{ venue: 'lighter', accountIndex: 3, rebind: undefined }],
      nonce: newNonce(),
      expiresAt: 1_800_000_000,
      label: null,
    }
    expect(walletMessage('dn', 'prepare', payload)).toBe(
      coreWalletMessage('dn', 'prepare', payload),
    )
    expect(newNonce()).toMatch(/^[A-Za-z0-9_-]{24}$/)
  })

  test('behavior: every sign request of the four venues is explained in full', async () => {
    const wallet = newWallet()
    const targets = allTargets(bed, wallet.address.toLowerCase())
    const batch = await prepared(bed, wallet, targets)
    const requests = batch.signRequests as SignRequest[]
    expect(requests.map((r) => r.requestId)).toEqual([
      'hl:approveAgent',
      'hl:approveBuilderFee',
      'aster:approveAgent',
      'lighter:changePubKey',
      'lighter:approveIntegrator',
      'lighter-mainnet:changePubKey',
      'lighter-mainnet:approveIntegrator',
    ])
    const lines = requests.map((r) => {
      const e = explainSignRequest(r)
      expect(`${e.title} ${e.allows} ${e.cannot}`).not.toMatch(
        /\?|undefined|NaN|\(agent \)/,
      )
      expect(e.cannot).toMatch(/cannot withdraw|CanWithdraw: false/)
      return e
    })
    const [hlAgent, hlFee, aster, lighterKey, lighterConsent] = lines
    expect(hlAgent?.title).toBe('Hyperliquid: approve a trading agent')
    expect(hlFee?.allows).toContain(`at most 0.1% on orders`)
    expect(hlFee?.allows.toLowerCase()).toContain(BUILDER)
    expect(aster?.allows).toContain(
      'caps the builder fee on those orders at 0.1%',
    )
    const lighter = targets.find((t) => t.venue === 'lighter')
    expect(lighterKey?.allows).toMatch(
      new RegExp(
        `slot \\d+\\) on your Lighter account #${lighter?.accountIndex}\\b`,
      ),
    )
    expect(lighterConsent?.allows).toContain('integrator #994')
    expect(explainSignRequest(requests[6] as SignRequest).allows).toContain(
      'integrator #735705',
    )
  })
})
