import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createLighterAuthToken } from '../../lighter/signer/authToken.js'
import { LIGHTER_WS_CODES } from '../../lighter/stream/lighterWsLimits.js'
import { fillLighterBed } from '../testing/fillLighterBed.js'
import {
  type LighterTestBed,
  openLighterTestBed,
} from '../testing/lighterTestBed.js'
import { connectFrameClient, type Frame } from '../wsFrameClient.js'

const connect = connectFrameClient

/** The Lighter fake's `account_all/<account>` channel. */
describe('Lighter fake account_all', () => {
  let bed: LighterTestBed
  beforeAll(async () => {
    // the venue's clock stands still: the marks cannot step between the
    // pushed frame and the REST read it is compared with
    const frozen = Date.now()
    bed = await openLighterTestBed(
      'lighter-mainnet',
      23,
      { now: () => frozen },
      {
        accountStreamIntervalMs: 50,
        wsLimits: { subscriptionsPerConnection: 2 },
      },
    )
    fillLighterBed(bed, 'long', '0.02')
  })
  afterAll(() => bed?.fake.close())

  const token = (accountIndex = bed.accountIndex) => {
    const [, apiKey] = (bed.cred.credentialRef ?? '').split(':')
    return createLighterAuthToken({
      deadline: Math.floor(Date.now() / 1000) + 600,
      accountIndex,
      apiKeyIndex: Number(apiKey),
      privateKey: bed.cred.secret ?? '',
    })
  }
  const channel = () => `account_all/${bed.accountIndex}`
  const restPositions = async () => {
    const res = await fetch(
      `${bed.fake.url}/api/v1/account?by=index&value=${bed.accountIndex}`,
    )
    const body = (await res.json()) as { accounts: { positions: Frame[] }[] }
    return body.accounts[0]?.positions ?? []
  }

  test('subscribe: a snapshot whose positions are the REST account read', async () => {
    const c = await connect(bed.fake.wsUrl)
    c.send({ type: 'subscribe', channel: channel(), auth: token() })
    const snap = await c.next((f) => f.type === 'subscribed/account_all')
    expect(snap.channel).toBe(`account_all:${bed.accountIndex}`)
    expect(snap.account).toBe(bed.accountIndex)
    const rows = await restPositions()
    expect(rows.length).toBe(1)
    expect(Object.values(snap.positions as Frame)).toEqual(rows)
    expect(Object.keys(snap.positions as Frame)).toEqual(
      rows.map((r) => String(r.market_id)),
    )
    c.ws.close()
  })

  test('a fill is pushed as an update of that market only', async () => {
    const c = await connect(bed.fake.wsUrl)
    c.send({ type: 'subscribe', channel: channel() })
    const snap = await c.next((f) => f.type === 'subscribed/account_all')
    const [id, before] = Object.entries(snap.positions as Frame)[0] as [
      string,
      Frame,
    ]
    fillLighterBed(bed, 'long', '0.01')
    const update = await c.next(
      (f) =>
        f.type === 'update/account_all' &&
        (f.positions as Record<string, Frame>)[id]?.position !==
          before.position,
    )
    const after = (update.positions as Record<string, Frame>)[id] as Frame
    expect(Number(after.position)).toBeCloseTo(Number(before.position) + 0.01)
    expect(after).toEqual((await restPositions())[0])
    c.ws.close()
  })

  test('a token that is not the account’s is refused; none is accepted', async () => {
    const c = await connect(bed.fake.wsUrl)
    c.send({ type: 'subscribe', channel: channel(), auth: token(999_999) })
    const refused = await c.next((f) => f.type === 'error')
    expect(refused).toMatchObject({
      code: 20013,
      channel: `account_all:${bed.accountIndex}`,
    })
    c.send({ type: 'subscribe', channel: channel(), auth: 'garbage' })
    expect((await c.next((f) => f.type === 'error')).code).toBe(20013)
    expect(c.frames.some((f) => f.type === 'subscribed/account_all')).toBe(
      false,
    )
    c.send({ type: 'subscribe', channel: channel() })
    await c.next((f) => f.type === 'subscribed/account_all')
    c.ws.close()
  })

  test('the connection’s subscription limit is enforced with 23001', async () => {
    const c = await connect(bed.fake.wsUrl)
    c.send({ type: 'subscribe', channel: 'market_stats/all' })
    await c.next((f) => f.type === 'subscribed/market_stats')
    c.send({ type: 'subscribe', channel: channel() })
    await c.next((f) => f.type === 'subscribed/account_all')
    c.send({ type: 'subscribe', channel: 'market_stats/0' })
    expect(await c.next((f) => f.type === 'error')).toMatchObject({
      code: LIGHTER_WS_CODES.tooManySubscriptions,
    })
    // resubscribing a held channel is no new subscription: a new snapshot
    c.send({ type: 'subscribe', channel: channel() })
    await c.next((f) => f.type === 'subscribed/account_all')
    // an unsubscribe frees the slot
    c.send({ type: 'unsubscribe', channel: 'market_stats/all' })
    c.send({ type: 'subscribe', channel: 'market_stats/0' })
    await c.next((f) => f.type === 'subscribed/market_stats')
    c.ws.close()
  })
})
