import { recoverTypedDataAddress } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import {
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from '../binding/approveAgentRequest.js'
import { joinSignature } from './splitSignature.js'
import { TEST_ADDRESS, TEST_KEY } from './testVectors.js'
import {
  recoverUserSignedSigner,
  signUserSignedAction,
} from './userSignedAction.js'

const USD_SEND_TYPES = {
  'HyperliquidTransaction:UsdSend': [
    { name: 'hyperliquidChain', type: 'string' },
    { name: 'destination', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'time', type: 'uint64' },
  ],
} as const

const usdSend = {
  type: 'usdSend',
  signatureChainId: '0x66eee',
  hyperliquidChain: 'Testnet',
  destination: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
  amount: '1',
  time: 1687816341423,
}

const AGENT = '0x5e9ee1089755c3435139848e47e6635505d5a13a'

describe('signUserSignedAction', () => {
  test('vector: python test_sign_usd_transfer_action (UsdSend, testnet, 0x66eee)', async () => {
    expect(
      await signUserSignedAction({
        privateKey: TEST_KEY,
        action: usdSend,
        types: USD_SEND_TYPES,
        primaryType: 'HyperliquidTransaction:UsdSend',
        isMainnet: false,
      }),
    ).toEqual({
      r: '0x637b37dd731507cdd24f46532ca8ba6eec616952c56218baeff04144e4a77073',
      s: '0x11a6a24900e6e314136d2592e2f8d502cd89b7c15b198e1bee043c9589f9fad7',
      v: 27,
    })
  })

  test('vector: approveAgent from the binding request (hyperliquid.md §10 self-computed)', async () => {
    const { payload } = hlApproveAgentRequest({
      agentAddress: AGENT,
      agentName: '',
      nonce: 1700000000000,
    })
    const action = payload.message as typeof payload.message & {
      signatureChainId: string
      hyperliquidChain: string
    }
    const signature = await signUserSignedAction({
      account: privateKeyToAccount(TEST_KEY),
      action,
      types: payload.types,
      primaryType: 'HyperliquidTransaction:ApproveAgent',
      isMainnet: true,
    })
    expect(joinSignature(signature)).toBe(
      '0x82561d5e3fc23b6163cbceea2d4e27438c7b28211da2cf86509652ac34aaef93418356cbc628b339bdecf9228dab4c86aaafb8fc6230c0b75952563b5c330dea1b',
    )
    expect(
      await recoverTypedDataAddress({
        ...payload,
        signature: joinSignature(signature),
      } as Parameters<typeof recoverTypedDataAddress>[0]),
    ).toBe(TEST_ADDRESS)
  })

  test('vector: approveBuilderFee from the binding request (hyperliquid.md §10 self-computed)', async () => {
    const { payload } = hlApproveBuilderFeeRequest({
      builder: AGENT,
      nonce: 1700000000000,
    })
    const action = payload.message as typeof payload.message & {
      signatureChainId: string
      hyperliquidChain: string
    }
    const signature = await signUserSignedAction({
      privateKey: TEST_KEY,
      action,
      types: payload.types,
      primaryType: 'HyperliquidTransaction:ApproveBuilderFee',
      isMainnet: true,
    })
    expect(joinSignature(signature)).toBe(
      '0x87b88af2d933dc49e87115c7ba8674bdba3f4396ab592491f8c04f58f99b91281d057388bea0f63fa37be328a7138cd99f35a0c2ac6b92e7c6d44ce971814b411b',
    )
    expect(
      await recoverTypedDataAddress({
        ...payload,
        signature: joinSignature(signature),
      } as Parameters<typeof recoverTypedDataAddress>[0]),
    ).toBe(TEST_ADDRESS)
  })

  test('behavior: testnet, named agent, custom chain — viem recovers the owner', async () => {
    const { payload } = hlApproveAgentRequest({
      agentAddress: AGENT,
      agentName: 'dn valid_until 1800000000000',
      nonce: 1700000000123,
      testnet: true,
      signatureChainId: 421614,
    })
    const action = payload.message as typeof payload.message & {
      signatureChainId: string
      hyperliquidChain: string
    }
    const input = {
      action,
      types: payload.types,
      primaryType: 'HyperliquidTransaction:ApproveAgent',
      isMainnet: false,
    } as const
    const signature = await signUserSignedAction({
      privateKey: TEST_KEY,
      ...input,
    })
    expect(
      await recoverTypedDataAddress({
        ...payload,
        signature: joinSignature(signature),
      } as Parameters<typeof recoverTypedDataAddress>[0]),
    ).toBe(TEST_ADDRESS)
    expect(await recoverUserSignedSigner({ ...input, signature })).toBe(
      TEST_ADDRESS,
    )
    expect(
      await recoverUserSignedSigner({
        ...input,
        action: { ...action, signatureChainId: '0x1' },
        signature,
      }),
    ).not.toBe(TEST_ADDRESS)
  })

  test('error: hyperliquidChain disagrees with isMainnet; bad chain id; unknown primary type', async () => {
    const base = {
      privateKey: TEST_KEY,
      types: USD_SEND_TYPES,
      primaryType: 'HyperliquidTransaction:UsdSend',
    } as const
    await expect(
      signUserSignedAction({ ...base, action: usdSend, isMainnet: true }),
    ).rejects.toThrow(/hyperliquidChain must be Mainnet/)
    await expect(
      signUserSignedAction({
        ...base,
        action: { ...usdSend, signatureChainId: '421614' },
        isMainnet: false,
      }),
    ).rejects.toThrow(/signatureChainId/)
    await expect(
      signUserSignedAction({
        ...base,
        primaryType: 'HyperliquidTransaction:SpotSend',
        action: usdSend,
        isMainnet: false,
      }),
    ).rejects.toThrow(/primary type/)
  })
})
