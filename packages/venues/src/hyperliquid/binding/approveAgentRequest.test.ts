import { recoverTypedDataAddress, type TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { verifySignRequest } from '../../binding/verifySignRequest.js'
import {
  fieldOrder,
  TEST_OWNER,
  walletSign,
  withMessageField,
} from '../../binding/walletTestKit.js'
import {
  hlApproveAgentRequest,
  hlApproveBuilderFeeRequest,
} from './approveAgentRequest.js'

const AGENT = '0x5e9ee1089755c3435139848e47e6635505d5a13a'

const agentRequest = (
  over: Partial<Parameters<typeof hlApproveAgentRequest>[0]> = {},
) =>
  hlApproveAgentRequest({
    agentAddress: AGENT,
    agentName: 'dn',
    nonce: 1700000000000,
    ...over,
  })

const feeRequest = (
  over: Partial<Parameters<typeof hlApproveBuilderFeeRequest>[0]> = {},
) =>
  hlApproveBuilderFeeRequest({ builder: AGENT, nonce: 1700000000001, ...over })

describe('hl:approveAgent', () => {
  test('pinned: the exact request for fixed inputs (mainnet, default chain 42161)', () => {
    expect(JSON.stringify(agentRequest())).toBe(
      '{"requestId":"hl:approveAgent","venue":"hl","action":"approveAgent","method":"eth_signTypedData_v4","payload":{"domain":{"name":"HyperliquidSignTransaction","version":"1","chainId":42161,"verifyingContract":"0x0000000000000000000000000000000000000000"},"types":{"HyperliquidTransaction:ApproveAgent":[{"name":"hyperliquidChain","type":"string"},{"name":"agentAddress","type":"address"},{"name":"agentName","type":"string"},{"name":"nonce","type":"uint64"}]},"primaryType":"HyperliquidTransaction:ApproveAgent","message":{"type":"approveAgent","signatureChainId":"0xa4b1","hyperliquidChain":"Mainnet","agentAddress":"0x5e9ee1089755c3435139848e47e6635505d5a13a","agentName":"dn","nonce":1700000000000}}}',
    )
  })

  test('contract: fields in the table order, Hyperliquid primary type', () => {
    const r = agentRequest()
    expect(fieldOrder(r)).toEqual([
      'hyperliquidChain:string',
      'agentAddress:address',
      'agentName:string',
      'nonce:uint64',
    ])
    expect(r.payload.primaryType).toBe('HyperliquidTransaction:ApproveAgent')
    expect(Object.keys(r.payload.types)).toEqual([
      'HyperliquidTransaction:ApproveAgent',
    ])
  })

  test('testnet label and a custom wallet chain: hex in the message, number in the domain', () => {
    const r = agentRequest({ testnet: true, signatureChainId: 421614 })
    expect(r.payload.domain.chainId).toBe(421614)
    expect(r.payload.message).toMatchObject({
      hyperliquidChain: 'Testnet',
      signatureChainId: '0x66eee',
    })
  })

  test('vector: same signature as the research vector (key 0x0123…, name "", nonce 1700000000000)', async () => {
    const key = privateKeyToAccount(
      '0x0123456789012345678901234567890123456789012345678901234567890123',
    )
    const r = agentRequest({ agentName: '' })
    expect(await walletSign(r, key)).toBe(
      '0x82561d5e3fc23b6163cbceea2d4e27438c7b28211da2cf86509652ac34aaef93418356cbc628b339bdecf9228dab4c86aaafb8fc6230c0b75952563b5c330dea1b',
    )
  })

  test('signing: the wallet signs the returned JSON; viem recovers the owner', async () => {
    const r = agentRequest()
    const signature = await walletSign(r)
    const recovered = await recoverTypedDataAddress({
      ...(r.payload as unknown as TypedDataDefinition),
      signature,
    })
    expect(recovered).toBe(TEST_OWNER)
    expect(await verifySignRequest(r, signature, TEST_OWNER)).toBe(true)
  })

  test('tampering: every typed field breaks recovery', async () => {
    const r = agentRequest()
    const signature = await walletSign(r)
    const changes: [string, unknown][] = [
      ['hyperliquidChain', 'Testnet'],
      ['agentAddress', '0x0000000000000000000000000000000000000001'],
      ['agentName', 'dn2'],
      ['nonce', 1700000000001],
    ]
    for (const [name, value] of changes) {
      expect(
        await verifySignRequest(
          withMessageField(r, name, value),
          signature,
          TEST_OWNER,
        ),
      ).toBe(false)
    }
  })

  test('EIP-712: `type` and `signatureChainId` are outside the hash (the venue derives the domain from signatureChainId)', async () => {
    const r = agentRequest()
    const signature = await walletSign(r)
    expect(
      await verifySignRequest(
        withMessageField(r, 'type', 'x'),
        signature,
        TEST_OWNER,
      ),
    ).toBe(true)
    const otherDomain = {
      ...r,
      payload: { ...r.payload, domain: { ...r.payload.domain, chainId: 1 } },
    }
    expect(await verifySignRequest(otherDomain, signature, TEST_OWNER)).toBe(
      false,
    )
  })

  test('invalid input: address, name length, nonce, chain id', () => {
    expect(() => agentRequest({ agentAddress: '0x12' })).toThrow(RangeError)
    expect(() => agentRequest({ agentName: 'a'.repeat(17) })).toThrow(
      RangeError,
    )
    expect(() =>
      agentRequest({
        agentName: `${'a'.repeat(16)} valid_until 1700000000000`,
      }),
    ).not.toThrow()
    expect(() => agentRequest({ nonce: 0 })).toThrow(RangeError)
    expect(() => agentRequest({ nonce: 1.5 })).toThrow(RangeError)
    expect(() => agentRequest({ signatureChainId: 0 })).toThrow(RangeError)
  })
})

describe('hl:approveBuilderFee', () => {
  test('pinned: testnet, chain 421614, builder lower-cased, 0.1%', () => {
    expect(
      JSON.stringify(
        feeRequest({
          builder: AGENT.toUpperCase().replace('0X', '0x'),
          testnet: true,
          signatureChainId: 421614,
        }),
      ),
    ).toBe(
      '{"requestId":"hl:approveBuilderFee","venue":"hl","action":"approveBuilderFee","method":"eth_signTypedData_v4","payload":{"domain":{"name":"HyperliquidSignTransaction","version":"1","chainId":421614,"verifyingContract":"0x0000000000000000000000000000000000000000"},"types":{"HyperliquidTransaction:ApproveBuilderFee":[{"name":"hyperliquidChain","type":"string"},{"name":"maxFeeRate","type":"string"},{"name":"builder","type":"address"},{"name":"nonce","type":"uint64"}]},"primaryType":"HyperliquidTransaction:ApproveBuilderFee","message":{"type":"approveBuilderFee","signatureChainId":"0x66eee","hyperliquidChain":"Testnet","maxFeeRate":"0.1%","builder":"0x5e9ee1089755c3435139848e47e6635505d5a13a","nonce":1700000000001}}}',
    )
  })

  test('contract: fields in the table order', () => {
    expect(fieldOrder(feeRequest())).toEqual([
      'hyperliquidChain:string',
      'maxFeeRate:string',
      'builder:address',
      'nonce:uint64',
    ])
  })

  test('vector: same signature as the research vector (key 0x0123…, builder 0x5e9e…, nonce 1700000000000)', async () => {
    const key = privateKeyToAccount(
      '0x0123456789012345678901234567890123456789012345678901234567890123',
    )
    expect(await walletSign(feeRequest({ nonce: 1700000000000 }), key)).toBe(
      '0x87b88af2d933dc49e87115c7ba8674bdba3f4396ab592491f8c04f58f99b91281d057388bea0f63fa37be328a7138cd99f35a0c2ac6b92e7c6d44ce971814b411b',
    )
  })

  test('signing and tampering', async () => {
    const r = feeRequest()
    const signature = await walletSign(r)
    expect(await verifySignRequest(r, signature, TEST_OWNER)).toBe(true)
    const changes: [string, unknown][] = [
      ['hyperliquidChain', 'Testnet'],
      ['maxFeeRate', '0.2%'],
      ['builder', '0x0000000000000000000000000000000000000001'],
      ['nonce', 1],
    ]
    for (const [name, value] of changes) {
      expect(
        await verifySignRequest(
          withMessageField(r, name, value),
          signature,
          TEST_OWNER,
        ),
      ).toBe(false)
    }
  })

  test('invalid input: builder and rate', () => {
    expect(() => feeRequest({ builder: 'builder' })).toThrow(RangeError)
    expect(() => feeRequest({ maxFeeRate: '0.001' })).toThrow(RangeError)
    expect(feeRequest({ maxFeeRate: '0.01%' }).payload.message.maxFeeRate).toBe(
      '0.01%',
    )
  })
})
