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
  ASTER_MAX_BUILDER_FEE_RATE,
  asterApproveAgentRequest,
} from './approveAgentRequest.js'

const request = (
  over: Partial<Parameters<typeof asterApproveAgentRequest>[0]> = {},
) =>
  asterApproveAgentRequest({
    owner: TEST_OWNER.toLowerCase(),
    agentAddress: '0x5e9ee1089755c3435139848e47e6635505d5a13a',
    agentName: 'dn-5e9ee108',
    nonce: 1700000000000000,
    expired: 1731536000000,
    feeApproval: true,
    builder: '0x00000000000000000000000000000000000000b1',
    builderName: 'dn',
    chain: 'Mainnet',
    ...over,
  })

/** The contract's table, in order. */
const CONTRACT_FIELDS = [
  'AgentName:string',
  'AgentAddress:string',
  'IpWhitelist:string',
  'Expired:uint256',
  'CanSpotTrade:bool',
  'CanPerpTrade:bool',
  'CanWithdraw:bool',
  'Builder:string',
  'MaxFeeRate:string',
  'BuilderName:string',
  'AsterChain:string',
  'User:string',
  'Nonce:uint256',
]

describe('aster:approveAgent', () => {
  test('pinned: the exact request for fixed inputs (addresses checksummed)', () => {
    expect(JSON.stringify(request())).toBe(
      '{"requestId":"aster:approveAgent","venue":"aster","action":"approveAgent","method":"eth_signTypedData_v4","payload":{"domain":{"name":"AsterSignTransaction","version":"1","chainId":56,"verifyingContract":"0x0000000000000000000000000000000000000000"},"types":{"ApproveAgent":[{"name":"AgentName","type":"string"},{"name":"AgentAddress","type":"string"},{"name":"IpWhitelist","type":"string"},{"name":"Expired","type":"uint256"},{"name":"CanSpotTrade","type":"bool"},{"name":"CanPerpTrade","type":"bool"},{"name":"CanWithdraw","type":"bool"},{"name":"Builder","type":"string"},{"name":"MaxFeeRate","type":"string"},{"name":"BuilderName","type":"string"},{"name":"AsterChain","type":"string"},{"name":"User","type":"string"},{"name":"Nonce","type":"uint256"}]},"primaryType":"ApproveAgent","message":{"AgentName":"dn-5e9ee108","AgentAddress":"0x5E9EE1089755C3435139848e47e6635505D5a13A","IpWhitelist":"","Expired":1731536000000,"CanSpotTrade":false,"CanPerpTrade":true,"CanWithdraw":false,"Builder":"0x00000000000000000000000000000000000000B1","MaxFeeRate":"0.001","BuilderName":"dn","AsterChain":"Mainnet","User":"0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A","Nonce":1700000000000000}}}',
    )
  })

  test('contract: the 13 fields in the table order; perp only; 0.1% as a fraction', () => {
    const r = request()
    expect(fieldOrder(r)).toEqual(CONTRACT_FIELDS)
    expect(r.payload.primaryType).toBe('ApproveAgent')
    expect(Object.keys(r.payload.message)).toEqual(
      CONTRACT_FIELDS.map((f) => f.split(':')[0]),
    )
    expect(r.payload.message).toMatchObject({
      CanSpotTrade: false,
      CanPerpTrade: true,
      CanWithdraw: false,
      MaxFeeRate: '0.001',
    })
    expect(ASTER_MAX_BUILDER_FEE_RATE).toBe('0.001')
  })

  test('without fee approval the builder fields are not sent or signed', () => {
    const r = request({ feeApproval: false, builder: undefined })
    expect(fieldOrder(r)).toEqual(
      CONTRACT_FIELDS.filter(
        (f) => !/^(Builder|MaxFeeRate|BuilderName):/.test(f),
      ),
    )
    expect(r.payload.message).not.toHaveProperty('Builder')
  })

  test('testnet label and another signature chain', () => {
    const r = request({ chain: 'Testnet', signatureChainId: 1666 })
    expect(r.payload.message.AsterChain).toBe('Testnet')
    expect(r.payload.domain.chainId).toBe(1666)
  })

  test('vector: same signature as the research vector (aster.md §9, chain 56)', async () => {
    const key = privateKeyToAccount(
      '0x4fd0a42218f3eae43a6ce26d22544e986139a01e5b34a62db53757ffca81bae1',
    )
    const r = asterApproveAgentRequest({
      owner: key.address,
      agentAddress: key.address,
      agentName: 'agent1',
      nonce: 1748310859508867,
      expired: 1967945395040,
      feeApproval: true,
      builder: '0x014c85ffb0fF2F2972237AA950B452f92C69Ae1D',
      builderName: 'b1',
      chain: 'Mainnet',
    })
    expect(await walletSign(r, key)).toBe(
      '0xbe1d95b61d862911e103a1d4c374172bb1c096321847d82b23d01796d86aa65058ef7697e93617624d2968ef14a725abb2a744298e4083fb9f20432d412303e81c',
    )
  })

  test('signing: recovers the owner; tampering any field breaks it', async () => {
    const r = request()
    const signature = await walletSign(r)
    expect(await verifySignRequest(r, signature, TEST_OWNER)).toBe(true)
    const changes: [string, unknown][] = [
      ['AgentName', 'x'],
      ['AgentAddress', '0x0000000000000000000000000000000000000001'],
      ['IpWhitelist', '127.0.0.1'],
      ['Expired', 1731536000001],
      ['CanSpotTrade', true],
      ['CanPerpTrade', false],
      ['CanWithdraw', true],
      ['Builder', '0x00000000000000000000000000000000000000b1'],
      ['MaxFeeRate', '0.1'],
      ['BuilderName', 'other'],
      ['AsterChain', 'Testnet'],
      ['User', TEST_OWNER.toLowerCase()],
      ['Nonce', 1700000000000001],
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

  test('invalid input', () => {
    expect(() => request({ owner: 'me' })).toThrow(RangeError)
    expect(() => request({ agentAddress: '0x1' })).toThrow(RangeError)
    expect(() => request({ builder: undefined })).toThrow(RangeError)
    expect(() => request({ builderName: '' })).toThrow(RangeError)
    expect(() => request({ nonce: -1 })).toThrow(RangeError)
    expect(() => request({ expired: 0 })).toThrow(RangeError)
  })
})
