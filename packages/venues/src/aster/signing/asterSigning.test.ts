import type { TypedDataDefinition } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { asterApproveAgentRequest } from '../binding/approveAgentRequest.js'
import {
  ASTER_AGENT_CHAIN_ID,
  recoverAsterMessageSigner,
  signAsterMessage,
} from './asterMessage.js'
import { formEncode } from './formEncode.js'
import {
  legacyV3Hash,
  recoverLegacyV3Signer,
  signLegacyV3,
} from './legacyV3Signature.js'
import { managementParams, managementTypedData } from './managementTypedData.js'
import {
  VECTOR_KEY,
  VECTOR_NONCE,
  VECTOR_SIGNER,
  VECTOR_USER,
} from './testVectors.js'

const MSG = formEncode([
  ['symbol', 'ASTERUSDT'],
  ['type', 'LIMIT'],
  ['side', 'BUY'],
  ['timeInForce', 'GTC'],
  ['quantity', '20'],
  ['price', '0.5'],
  ['nonce', String(VECTOR_NONCE)],
  ['user', VECTOR_USER],
  ['signer', VECTOR_SIGNER],
])

describe('Aster signing vectors (aster.md §9)', () => {
  test('vector: the form encoder gives the documented message string', () => {
    expect(MSG).toBe(
      `symbol=ASTERUSDT&type=LIMIT&side=BUY&timeInForce=GTC&quantity=20&price=0.5&nonce=1748310859508867&user=${VECTOR_USER}&signer=${VECTOR_SIGNER}`,
    )
  })

  test('behavior: values are percent-encoded, order is kept', () => {
    expect(
      formEncode([
        ['b', 'x y&z=1'],
        ['a', '["1","2"]'],
      ]),
    ).toBe('b=x%20y%26z%3D1&a=%5B%221%22%2C%222%22%5D')
  })

  test('vector: Message scheme, chain 1666', async () => {
    const signature = await signAsterMessage({
      privateKey: VECTOR_KEY,
      msg: MSG,
      chainId: ASTER_AGENT_CHAIN_ID.mainnet,
    })
    expect(signature).toBe(
      '0x0a56c5923ebf3524475c5f631940ec4c0e41dbd300ad28198d1915d8f3ca49ce26fd1aeb8b0c3079133595da0de38322ae7e860e0c76d032c4a491d27c1430b01c',
    )
    expect(
      await recoverAsterMessageSigner({ msg: MSG, signature, chainId: 1666 }),
    ).toBe(VECTOR_SIGNER)
    // the testnet domain recovers someone else
    expect(
      await recoverAsterMessageSigner({ msg: MSG, signature, chainId: 714 }),
    ).not.toBe(VECTOR_SIGNER)
  })

  test('vector: Message scheme, testnet chain 714', async () => {
    expect(
      await signAsterMessage({
        privateKey: VECTOR_KEY,
        msg: MSG,
        chainId: ASTER_AGENT_CHAIN_ID.testnet,
      }),
    ).toBe(
      '0xf91e000376f360c1661cf0fbc79a816e915dce485c616bd49c5e35c6cbc5ba5042ccf75a2bffd282676dbf698087a73982bfd1491a993eeedc276f6827c94a8c1c',
    )
  })

  test('vector: legacy V3 (keccak of abi.encode, then personal_sign)', async () => {
    const input = {
      params: {
        symbol: 'SANDUSDT',
        positionSide: 'BOTH',
        type: 'LIMIT',
        side: 'BUY',
        timeInForce: 'GTC',
        quantity: '190',
        price: '0.28694',
        recvWindow: '50000',
        timestamp: '1749545309665',
      },
      user: VECTOR_USER,
      signer: VECTOR_SIGNER,
      nonce: VECTOR_NONCE,
    }
    expect(legacyV3Hash(input)).toBe(
      '0x9e0273fc91323f5cdbcb00c358be3dee2854afb2d3e4c68497364a2f27a377fc',
    )
    const signature = await signLegacyV3(input, VECTOR_KEY)
    expect(signature).toBe(
      '0x0337dd720a21543b80ff861cd3c26646b75b3a6a4b5d45805d4c1d6ad6fc33e65f0722778dd97525466560c69fbddbe6874eb4ed6f5fa7e576e486d9b5da67f31b',
    )
    expect(await recoverLegacyV3Signer(input, signature)).toBe(VECTOR_SIGNER)
  })

  test('vector: ApproveAgent (chain 56) round-trips through the posted form', async () => {
    const request = asterApproveAgentRequest({
      owner: VECTOR_SIGNER,
      agentAddress: VECTOR_SIGNER,
      agentName: 'agent1',
      nonce: VECTOR_NONCE,
      expired: 1967945395040,
      feeApproval: true,
      builder: '0x014c85ffb0fF2F2972237AA950B452f92C69Ae1D',
      builderName: 'b1',
      chain: 'Mainnet',
    })
    const wallet = privateKeyToAccount(VECTOR_KEY)
    const expected =
      '0xbe1d95b61d862911e103a1d4c374172bb1c096321847d82b23d01796d86aa65058ef7697e93617624d2968ef14a725abb2a744298e4083fb9f20432d412303e81c'
    expect(
      await wallet.signTypedData(
        request.payload as unknown as TypedDataDefinition,
      ),
    ).toBe(expected)
    // what the binder posts, rebuilt as the venue rebuilds it
    const posted = managementParams(request, expected)
    expect(posted.map(([k]) => k)).toEqual([
      'agentName',
      'agentAddress',
      'ipWhitelist',
      'expired',
      'canSpotTrade',
      'canPerpTrade',
      'canWithdraw',
      'builder',
      'maxFeeRate',
      'builderName',
      'asterChain',
      'user',
      'nonce',
      'signature',
      'signatureChainId',
    ])
    expect(posted.at(-1)).toEqual(['signatureChainId', '56'])
    const rebuilt = managementTypedData('ApproveAgent', posted, 56)
    expect(
      await wallet.signTypedData(rebuilt as unknown as TypedDataDefinition),
    ).toBe(expected)
    // Python's True/False parse the same
    const pythonic = posted.map(([k, v]): [string, string] => [
      k,
      v === 'true' ? 'True' : v === 'false' ? 'False' : v,
    ])
    expect(
      await wallet.signTypedData(
        managementTypedData(
          'ApproveAgent',
          pythonic,
          56,
        ) as unknown as TypedDataDefinition,
      ),
    ).toBe(expected)
  })

  test('error: a malformed uint or flag is refused', () => {
    expect(() =>
      managementTypedData('ApproveAgent', [['expired', '1.5']], 56),
    ).toThrow(RangeError)
    expect(() =>
      managementTypedData('ApproveAgent', [['canWithdraw', 'yes']], 56),
    ).toThrow(RangeError)
  })
})
