import { recoverMessageAddress } from 'viem'
import { describe, expect, test } from 'vitest'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import { TEST_OWNER, walletSign } from '../../binding/walletTestKit.js'
import { lighterChangePubKeyRequest } from './changePubKeyRequest.js'
import {
  LIGHTER_INTEGRATOR_INDEX,
  lighterIntegratorConsentRequest,
} from './integratorConsentRequest.js'
import { lighterSignerChainId } from './lighterSignerChainId.js'
import {
  isServiceApiKeySlot,
  pickLighterApiKeySlot,
} from './pickLighterApiKeySlot.js'

/** The shape of Lighter's L1 registration message (lighter.md §6.1). */
const REGISTRATION = [
  'Register Lighter Account',
  '',
  `pubkey: 0x${'ab'.repeat(40)}`,
  'nonce: 0x0000000000000000',
  'account index: 0x0000000000000001',
  'api key index: 0x0000000000000005',
  'Only sign this message for a trusted client!',
].join('\n')

describe('changePubKey', () => {
  test('pinned: a personal_sign request carrying the message unchanged', () => {
    expect(
      JSON.stringify(
        lighterChangePubKeyRequest({ venue: 'lighter', message: REGISTRATION }),
      ),
    ).toBe(
      `{"requestId":"lighter:changePubKey","venue":"lighter","action":"changePubKey","method":"personal_sign","payload":{"message":${JSON.stringify(REGISTRATION)}}}`,
    )
    expect(
      lighterChangePubKeyRequest({
        venue: 'lighter-mainnet',
        message: REGISTRATION,
      }).requestId,
    ).toBe('lighter-mainnet:changePubKey')
  })

  test('signing: UTF-8 with real newlines recovers the owner; any change breaks it', async () => {
    const r = lighterChangePubKeyRequest({
      venue: 'lighter',
      message: REGISTRATION,
    })
    const signature = await walletSign(r)
    expect(
      await recoverMessageAddress({ message: REGISTRATION, signature }),
    ).toBe(TEST_OWNER)
    expect(await verifySignRequest(r, signature, TEST_OWNER)).toBe(true)
    const tampered = lighterChangePubKeyRequest({
      venue: 'lighter',
      message: REGISTRATION.replace('0x0000000000000005', '0x0000000000000006'),
    })
    expect(await verifySignRequest(tampered, signature, TEST_OWNER)).toBe(false)
  })

  test('invalid input', () => {
    expect(() =>
      lighterChangePubKeyRequest({ venue: 'hl' as 'lighter', message: 'm' }),
    ).toThrow(RangeError)
    expect(() =>
      lighterChangePubKeyRequest({ venue: 'lighter', message: '' }),
    ).toThrow(RangeError)
  })
})

describe('approveIntegrator consent', () => {
  const consent = (
    over: Partial<Parameters<typeof lighterIntegratorConsentRequest>[0]> = {},
  ) =>
    lighterIntegratorConsentRequest({
      venue: 'lighter',
      owner: TEST_OWNER,
      nonce: 1700000000000,
      timestamp: 1700000000,
      ...over,
    })

  test('pinned: one line, owner lower-cased, index 994', () => {
    expect(JSON.stringify(consent())).toBe(
      '{"requestId":"lighter:approveIntegrator","venue":"lighter","action":"approveIntegrator","method":"personal_sign","payload":{"message":"Approve zero-fee integrator (all maker and taker fee caps 0) owner=0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a venue=lighter integratorIndex=994 nonce=1700000000000 timestamp=1700000000"}}',
    )
  })

  test('contract: the form `Approve zero-fee ... owner= venue= integratorIndex= nonce= timestamp=`', () => {
    const m = consent({ venue: 'lighter-mainnet', nonce: 'abc_DEF-1' }).payload
      .message
    expect(m).toMatch(
      /^Approve zero-fee [^\n]* owner=0x[0-9a-f]{40} venue=lighter-mainnet integratorIndex=735705 nonce=abc_DEF-1 timestamp=1700000000$/,
    )
    expect(LIGHTER_INTEGRATOR_INDEX).toEqual({
      lighter: 994,
      'lighter-mainnet': 735705,
    })
  })

  test('signing and tampering', async () => {
    const r = consent()
    const signature = await walletSign(r)
    expect(await verifySignRequest(r, signature, TEST_OWNER)).toBe(true)
    for (const other of [
      consent({ venue: 'lighter-mainnet' }),
      consent({ nonce: 1700000000001 }),
      consent({ timestamp: 1700000001 }),
      consent({ owner: '0x00000000000000000000000000000000000000a1' }),
    ]) {
      expect(await verifySignRequest(other, signature, TEST_OWNER)).toBe(false)
    }
  })

  test('invalid input', () => {
    expect(() => consent({ owner: 'x' })).toThrow(RangeError)
    expect(() => consent({ nonce: 'a b' })).toThrow(RangeError)
    expect(() => consent({ nonce: '' })).toThrow(RangeError)
    expect(() => consent({ timestamp: 1.5 })).toThrow(RangeError)
  })
})

describe('signer chain ids', () => {
  test('466324 / 304 in production, 300 on testnet', () => {
    expect(lighterSignerChainId('lighter', false)).toBe(466324)
    expect(lighterSignerChainId('lighter-mainnet', false)).toBe(304)
    expect(lighterSignerChainId('lighter', true)).toBe(300)
    expect(lighterSignerChainId('lighter-mainnet', true)).toBe(300)
    expect(() => lighterSignerChainId('aster' as 'lighter', false)).toThrow(
      RangeError,
    )
  })
})

describe('API-key slots', () => {
  test('the lowest free slot in 5..254, never 157', () => {
    expect(pickLighterApiKeySlot([])).toBe(5)
    expect(pickLighterApiKeySlot([0, 1, 2, 3, 4])).toBe(5)
    expect(pickLighterApiKeySlot([5, 6, 8])).toBe(7)
    const below157 = Array.from({ length: 152 }, (_, i) => i + 5)
    expect(pickLighterApiKeySlot(below157)).toBe(158)
  })

  test('throws when every service slot is taken', () => {
    const all = Array.from({ length: 255 }, (_, i) => i).filter(
      (s) => s !== 157,
    )
    expect(() => pickLighterApiKeySlot(all)).toThrow(RangeError)
  })

  test('isServiceApiKeySlot', () => {
    expect(
      [4, 5, 156, 157, 158, 254, 255, 5.5].map(isServiceApiKeySlot),
    ).toEqual([false, true, true, false, true, true, false, false])
  })
})
