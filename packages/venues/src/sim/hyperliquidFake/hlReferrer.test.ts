import { afterEach, describe, expect, test } from 'vitest'
import {
  HL_KIT_USER,
  type HlFakeTestKit,
  hlFakeTestKit,
} from './hlFakeTestKit.js'
import {
  HL_REFERRAL_CODE_UNKNOWN,
  HL_REFERRER_ALREADY_SET,
} from './hlReferrer.js'

const FRIEND = `0x${'cd'.repeat(20)}`

let kit: HlFakeTestKit | undefined
afterEach(async () => {
  await kit?.fake.close()
  kit = undefined
})

const weight = (k: HlFakeTestKit) =>
  k.fake.rateLimitUsage().reduce((sum, b) => sum + b.weight, 0)

const used = async (k: HlFakeTestKit) =>
  (await k.info({ type: 'userRateLimit', user: HL_KIT_USER })).body
    .nRequestsUsed as number

describe('hlReferrer', () => {
  test('error: a code nobody registered is refused (ccxt sends CCXT1 at start-up)', async () => {
    kit = await hlFakeTestKit()
    expect(await kit.l1({ type: 'setReferrer', code: 'CCXT1' })).toEqual({
      status: 'err',
      response: HL_REFERRAL_CODE_UNKNOWN,
    })
    expect(kit.fake.toSnapshot().referrerOf).toEqual([])
  })

  test('behavior: a user sets a referrer once', async () => {
    kit = await hlFakeTestKit({ FRIEND })
    expect(await kit.l1({ type: 'setReferrer', code: 'FRIEND' })).toEqual({
      status: 'ok',
      response: { type: 'default' },
    })
    expect(await kit.l1({ type: 'setReferrer', code: 'FRIEND' })).toEqual({
      status: 'err',
      response: HL_REFERRER_ALREADY_SET,
    })
    expect(HL_REFERRER_ALREADY_SET).toBe('Referrer already set')
    expect(kit.fake.toSnapshot().referrerOf).toEqual([[HL_KIT_USER, 'FRIEND']])
  })

  test('error: a user cannot join under its own code', async () => {
    kit = await hlFakeTestKit({ MINE: HL_KIT_USER.toUpperCase() })
    expect(await kit.l1({ type: 'setReferrer', code: 'MINE' })).toEqual({
      status: 'err',
      response: 'Cannot self-refer',
    })
  })

  test('error: a missing code is a deserialization error, not a crash', async () => {
    kit = await hlFakeTestKit({ FRIEND })
    expect(await kit.l1({ type: 'setReferrer' })).toEqual({
      status: 'err',
      response:
        'Failed to deserialize the JSON body into the target type: code',
    })
    expect(await kit.l1({ type: 'setReferrer', code: 7 })).toMatchObject({
      status: 'err',
    })
  })

  test('behavior: it weighs 1 and spends one action, refused or not', async () => {
    kit = await hlFakeTestKit({ FRIEND })
    const n0 = await used(kit)
    const w1 = weight(kit)
    await kit.l1({ type: 'setReferrer', code: 'NOPE' })
    expect(weight(kit) - w1).toBe(1)
    await kit.l1({ type: 'setReferrer', code: 'FRIEND' })
    expect(weight(kit) - w1).toBe(2)
    expect(await used(kit)).toBe(n0 + 2)
  })
})
