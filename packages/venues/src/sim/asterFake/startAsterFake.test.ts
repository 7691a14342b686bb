import type { Hex, TypedDataDefinition } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { asterApproveAgentRequest } from '../../aster/binding/approveAgentRequest.js'
import { signAsterMessage } from '../../aster/signing/asterMessage.js'
import { formEncode } from '../../aster/signing/formEncode.js'
import { managementParams } from '../../aster/signing/managementTypedData.js'
import { createSimExchange } from '../simExchange.js'
import { bindAsterWallet } from './asterTestKit.js'
import { type AsterFake, startAsterFake } from './startAsterFake.js'

/** Raw protocol checks of the fake, below the adapter. */
describe('startAsterFake', () => {
  const exchange = createSimExchange({
    venue: 'aster',
    seed: 3,
    clock: { now: () => Date.now() },
  })
  let fake: AsterFake
  beforeAll(async () => {
    fake = await startAsterFake({ exchange, port: 0 })
  })
  afterAll(() => fake.close())

  const call = async (method: string, path: string, body: string) => {
    const res = await fetch(`${fake.url}${path}`, {
      method,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    })
    return {
      status: res.status,
      body: (await res.json()) as { code?: number; msg?: string },
      res,
    }
  }

  async function approval(
    signer: ReturnType<typeof privateKeyToAccount>,
    owner: string,
  ) {
    const request = asterApproveAgentRequest({
      owner,
      agentAddress: privateKeyToAccount(generatePrivateKey()).address,
      agentName: 'x',
      nonce: Date.now() * 1000,
      expired: Date.now() + 86_400_000,
      feeApproval: false,
      chain: 'Mainnet',
    })
    const signature = await signer.signTypedData(
      request.payload as unknown as TypedDataDefinition,
    )
    return formEncode(managementParams(request, signature))
  }

  test('error: an ApproveAgent signed by another wallet is -1022, nothing approved', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const thief = privateKeyToAccount(generatePrivateKey())
    const r = await call(
      'POST',
      '/fapi/v3/approveAgent',
      await approval(thief, owner.address),
    )
    expect(r).toMatchObject({
      status: 400,
      body: { code: -1022, msg: 'Signature for this request is not valid.' },
    })
    expect(fake.agents(owner.address)).toEqual([])
    // the owner's own signature over the same struct is accepted
    const ok = await call(
      'POST',
      '/fapi/v3/approveAgent',
      await approval(owner, owner.address),
    )
    expect(ok.body).toEqual({ code: 200, msg: 'success' })
    expect(fake.agents(owner.address)).toHaveLength(1)
  })

  test('behavior: the signed string may travel in the query of a POST (send_by_url)', async () => {
    const { cred } = await bindAsterWallet(fake.url, exchange)
    const key = cred.secret as Hex
    const msg = formEncode([
      ['nonce', String(Date.now() * 1000)],
      ['user', cred.owner],
      ['signer', privateKeyToAccount(key).address],
    ])
    const signature = await signAsterMessage({
      privateKey: key,
      msg,
      chainId: 1666,
    })
    const res = await fetch(
      `${fake.url}/fapi/v3/noop?${msg}&signature=${signature}`,
      { method: 'POST' },
    )
    expect(await res.json()).toEqual({ code: 200, msg: 'success' })
    expect(Number(res.headers.get('x-mbx-used-weight-1m'))).toBeGreaterThan(0)
    // the same bytes reordered no longer match the signature
    const [a, b, c] = msg.split('&')
    const swapped = await call(
      'POST',
      '/fapi/v3/noop',
      `${b}&${a}&${c}&signature=${signature}`,
    )
    expect(swapped.body.code).toBe(-1022)
    // the testnet domain is another signature
    const testnet = await signAsterMessage({
      privateKey: key,
      msg,
      chainId: 714,
    })
    const wrongChain = await call(
      'POST',
      '/fapi/v3/noop',
      `${msg}&signature=${testnet}`,
    )
    expect(wrongChain.body.code).toBe(-1022)
  })

  test('error: missing signature, unknown symbol, unknown route, outage', async () => {
    expect(
      (await call('POST', '/fapi/v3/order', 'symbol=BTCUSDT')).body.code,
    ).toBe(-1102)
    const bad = await fetch(`${fake.url}/fapi/v3/premiumIndex?symbol=NOPE`)
    expect(await bad.json()).toEqual({ code: -1121, msg: 'Invalid symbol.' })
    expect((await fetch(`${fake.url}/fapi/v3/nothing`)).status).toBe(404)
    exchange.setFaults({ outage: true })
    try {
      expect((await fetch(`${fake.url}/fapi/v3/time`)).status).toBe(503)
    } finally {
      exchange.setFaults({})
    }
  })
})
