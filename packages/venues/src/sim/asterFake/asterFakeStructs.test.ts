import type { TypedDataDefinition } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signAsterMessage } from '../../aster/signing/asterMessage.js'
import type { AsterParam } from '../../aster/signing/formEncode.js'
import { formEncode } from '../../aster/signing/formEncode.js'
import { managementTypedData } from '../../aster/signing/managementTypedData.js'
import { createSimExchange } from '../simExchange.js'
import { inStructOrder } from './asterFakeStructs.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

const BUILDER = '0x014c85ffb0fF2F2972237AA950B452f92C69Ae1D'

/** Main-wallet structs are typed in their fixed order, not the posted one. */
describe('asterFake management structs', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 5,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
  })
  afterAll(() => fake.close())

  const post = async (path: string, body: string, method = 'POST') => {
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    return {
      status: res.status,
      body: (await res.json()) as { code?: number; msg?: string },
    }
  }

  /** Signs `signedOrder` as the struct, posts `postedOrder` (+ signature). */
  async function send(
    wallet: ReturnType<typeof privateKeyToAccount>,
    path: string,
    primaryType: string,
    signedOrder: readonly AsterParam[],
    postedOrder: readonly AsterParam[],
    method = 'POST',
  ) {
    const signature = await wallet.signTypedData(
      managementTypedData(
        primaryType,
        signedOrder,
        1666,
      ) as TypedDataDefinition,
    )
    return post(
      path,
      formEncode([
        ...postedOrder,
        ['signature', signature],
        ['signatureChainId', '1666'],
      ]),
      method,
    )
  }

  const builderFields = (user: string, fee = '0.001'): AsterParam[] => [
    ['builder', BUILDER],
    ['maxFeeRate', fee],
    ['builderName', 'b1'],
    ['asterChain', 'Mainnet'],
    ['user', user],
    ['nonce', String(Date.now() * 1000 + Math.floor(Math.random() * 1000))],
  ]
  // ccxt's order: nonce and user first, the rest as its request builds it
  const ccxtOrder = (f: AsterParam[]): AsterParam[] =>
    ['nonce', 'user', 'builder', 'builderName', 'maxFeeRate', 'asterChain'].map(
      (k) => f.find(([n]) => n === k) as AsterParam,
    )

  test('unit: inStructOrder keeps the fixed order and drops unsigned fields', () => {
    const posted: AsterParam[] = [
      ['nonce', '1'],
      ['signatureChainId', '1666'],
      ['user', '0xabc'],
      ['maxFeeRate', '0.001'],
      ['builder', '0xb'],
      ['asterChain', 'Mainnet'],
    ]
    expect(inStructOrder('ApproveBuilder', posted)).toEqual([
      ['builder', '0xb'],
      ['maxFeeRate', '0.001'],
      ['asterChain', 'Mainnet'],
      ['user', '0xabc'],
      ['nonce', '1'],
    ])
    expect(() => inStructOrder('Nope', posted)).toThrow(RangeError)
  })

  test('behavior: ApproveBuilder posted in any order, signed in the fixed one, is accepted and listed', async () => {
    const key = generatePrivateKey()
    const wallet = privateKeyToAccount(key)
    const fields = builderFields(wallet.address)
    const r = await send(
      wallet,
      '/fapi/v3/approveBuilder',
      'ApproveBuilder',
      fields,
      ccxtOrder(fields),
    )
    expect(r).toEqual({ status: 200, body: { code: 200, msg: 'success' } })
    expect(fake.builderCap(wallet.address, BUILDER)).toBe('0.001')
    // GET /fapi/v3/builder (agent-signed; here the user signs for itself)
    const msg = formEncode([
      ['nonce', String(Date.now() * 1000 + 7)],
      ['user', wallet.address],
      ['signer', wallet.address],
    ])
    const sig = await signAsterMessage({
      privateKey: key,
      msg,
      chainId: 1666,
    })
    const list = await fetch(
      `${fake.url}/fapi/v3/builder?${msg}&signature=${sig}`,
    )
    expect(await list.json()).toEqual([
      {
        userAddress: wallet.address,
        builderAddress: BUILDER,
        maxFeeRate: '0.001',
        builderName: 'b1',
      },
    ])
  })

  test('error: a struct signed in the posted (non-fixed) order is -1022, nothing approved', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const posted = ccxtOrder(builderFields(wallet.address))
    const r = await send(
      wallet,
      '/fapi/v3/approveBuilder',
      'ApproveBuilder',
      posted,
      posted,
    )
    expect(r).toEqual({
      status: 400,
      body: { code: -1022, msg: 'Signature for this request is not valid.' },
    })
    expect(fake.builderCap(wallet.address, BUILDER)).toBeUndefined()
  })

  test('behavior: ApproveAgent posted shuffled is accepted; UpdateBuilder and DelBuilder too', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const agent = privateKeyToAccount(generatePrivateKey()).address
    const fields: AsterParam[] = [
      ['agentName', 'a1'],
      ['agentAddress', agent],
      ['ipWhitelist', ''],
      ['expired', String(Date.now() + 86_400_000)],
      ['canSpotTrade', 'false'],
      ['canPerpTrade', 'true'],
      ['canWithdraw', 'false'],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', String(Date.now() * 1000 + 11)],
    ]
    const shuffled = [...fields].reverse()
    const ok = await send(
      wallet,
      '/fapi/v3/approveAgent',
      'ApproveAgent',
      fields,
      shuffled,
    )
    expect(ok.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.agents(wallet.address).map((a) => a.agentAddress)).toEqual([
      agent,
    ])
    const approve = builderFields(wallet.address)
    await send(
      wallet,
      '/fapi/v3/approveBuilder',
      'ApproveBuilder',
      approve,
      approve,
    )
    const update: AsterParam[] = [
      ['builder', BUILDER],
      ['maxFeeRate', '0.0005'],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', String(Date.now() * 1000 + 21)],
    ]
    const u = await send(
      wallet,
      '/fapi/v3/updateBuilder',
      'UpdateBuilder',
      update,
      [...update].reverse(),
    )
    expect(u.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.builderCap(wallet.address, BUILDER)).toBe('0.0005')
    const del: AsterParam[] = [
      ['builder', BUILDER],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', String(Date.now() * 1000 + 31)],
    ]
    const d = await send(
      wallet,
      '/fapi/v3/builder',
      'DelBuilder',
      del,
      del,
      'DELETE',
    )
    expect(d.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.builderCap(wallet.address, BUILDER)).toBeUndefined()
    // a second delete: nothing approved any more
    const again = await send(
      wallet,
      '/fapi/v3/builder',
      'DelBuilder',
      del.map(([k, v]) =>
        k === 'nonce' ? [k, String(Number(v) + 1)] : [k, v],
      ),
      del.map(([k, v]) =>
        k === 'nonce' ? [k, String(Number(v) + 1)] : [k, v],
      ),
      'DELETE',
    )
    expect(again.body.code).toBe(-1130)
  })
  test('behavior: UpdateAgent and DelAgent posted shuffled change and revoke the agent', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey())
    const agent = privateKeyToAccount(generatePrivateKey()).address
    const nonce = (n: number) => String(Date.now() * 1000 + n)
    const approve: AsterParam[] = [
      ['agentName', 'a2'],
      ['agentAddress', agent],
      ['ipWhitelist', ''],
      ['expired', String(Date.now() + 86_400_000)],
      ['canSpotTrade', 'false'],
      ['canPerpTrade', 'true'],
      ['canWithdraw', 'false'],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', nonce(41)],
    ]
    await send(
      wallet,
      '/fapi/v3/approveAgent',
      'ApproveAgent',
      approve,
      approve,
    )
    const update: AsterParam[] = [
      ['agentAddress', agent],
      ['ipWhitelist', '10.0.0.1'],
      ['canSpotTrade', 'false'],
      ['canPerpTrade', 'false'],
      ['canWithdraw', 'false'],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', nonce(42)],
    ]
    const u = await send(
      wallet,
      '/fapi/v3/updateAgent',
      'UpdateAgent',
      update,
      [...update].reverse(),
    )
    expect(u.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.agents(wallet.address)[0]).toMatchObject({
      ipWhitelist: '10.0.0.1',
      canPerpTrade: false,
    })
    const del: AsterParam[] = [
      ['agentAddress', agent],
      ['asterChain', 'Mainnet'],
      ['user', wallet.address],
      ['nonce', nonce(43)],
    ]
    const d = await send(
      wallet,
      '/fapi/v3/agent',
      'DelAgent',
      del,
      [...del].reverse(),
      'DELETE',
    )
    expect(d.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.agents(wallet.address)).toEqual([])
  })
})
