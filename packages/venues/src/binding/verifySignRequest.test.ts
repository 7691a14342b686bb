import type { SignRequest } from '@dn/core'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { hlApproveAgentRequest } from '../hyperliquid/binding/approveAgentRequest.js'
import { lighterChangePubKeyRequest } from '../lighter/binding/changePubKeyRequest.js'
import { verifySignRequest } from './verifySignRequest.js'
import { TEST_OWNER, walletSign } from './walletTestKit.js'

const typed = hlApproveAgentRequest({
  agentAddress: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
  agentName: 'dn',
  nonce: 1700000000000,
})
const personal = lighterChangePubKeyRequest({
  venue: 'lighter',
  message: 'line 1\nline 2',
})

describe('verifySignRequest', () => {
  test('typed data and personal_sign recover the owner, in any address case', async () => {
    for (const request of [typed, personal]) {
      const signature = await walletSign(request)
      expect(await verifySignRequest(request, signature, TEST_OWNER)).toBe(true)
      expect(
        await verifySignRequest(request, signature, TEST_OWNER.toLowerCase()),
      ).toBe(true)
      expect(
        await verifySignRequest(
          request,
          signature.toUpperCase().replace('0X', '0x'),
          TEST_OWNER,
        ),
      ).toBe(true)
    }
  })

  test('another signer, or a signature over another request, is false', async () => {
    const other = privateKeyToAccount(`0x${'22'.repeat(32)}`)
    expect(
      await verifySignRequest(
        typed,
        await walletSign(typed, other),
        TEST_OWNER,
      ),
    ).toBe(false)
    expect(
      await verifySignRequest(personal, await walletSign(typed), TEST_OWNER),
    ).toBe(false)
  })

  test('malformed signatures and owners are false, never a throw', async () => {
    const good = await walletSign(typed)
    const bad = [
      '',
      '0x',
      '0x1234',
      good.slice(0, -2),
      `${good}00`,
      good.slice(2),
      `0x${'zz'.repeat(65)}`,
      `0x${'00'.repeat(65)}`,
      `0x${'ff'.repeat(65)}`,
      `${good.slice(0, -2)}05`,
    ]
    for (const signature of bad) {
      expect(await verifySignRequest(typed, signature, TEST_OWNER)).toBe(false)
      expect(await verifySignRequest(personal, signature, TEST_OWNER)).toBe(
        false,
      )
    }
    expect(await verifySignRequest(typed, good, 'owner')).toBe(false)
  })

  test('a payload viem cannot encode is false', async () => {
    const good = await walletSign(typed)
    const broken = {
      ...typed,
      payload: { ...typed.payload, message: { hyperliquidChain: 'Mainnet' } },
    } as SignRequest
    expect(await verifySignRequest(broken, good, TEST_OWNER)).toBe(false)
  })
})
