import { describe, expect, test } from 'vitest'
import { hlOrderFills, memoizedHlOrderFills } from './hlOrderFills.js'
import type { HlPost } from './hlTransport.js'

const fill = (over: Record<string, unknown> = {}) => ({
  oid: 9,
  px: '100',
  sz: '1',
  time: 1_000,
  fee: '0.045',
  feeToken: 'USDC',
  ...over,
})
const answering =
  (fills: unknown[]): HlPost =>
  async () =>
    fills

describe('hlOrderFills', () => {
  test("default: the order's average price and fees, other orders' fills aside", async () => {
    const post = answering([
      fill(),
      fill({ px: '102', fee: '0.0459' }),
      fill({ oid: 10, fee: '5' }),
    ])
    expect(
      await hlOrderFills(post, '0xu', { oid: 9, startTime: 0 }, '2', 'history'),
    ).toEqual({
      averagePrice: '101',
      feeUsd: '0.0909',
    })
  })

  test("a fill's builder fee is the builder's, not the venue's", async () => {
    const post = answering([fill({ fee: '0.055', builderFee: '0.01' })])
    const got = await hlOrderFills(
      post,
      '0xu',
      { oid: 9, startTime: 0 },
      '1',
      'history',
    )
    expect(got?.feeUsd).toBe('0.045')
  })

  test('a fee in another token: not known; fills not all listed yet: null', async () => {
    const other = answering([fill({ feeToken: 'HYPE' })])
    expect(
      (
        await hlOrderFills(
          other,
          '0xu',
          { oid: 9, startTime: 0 },
          '1',
          'history',
        )
      )?.feeUsd,
    ).toBeNull()
    const lagging = answering([fill()])
    expect(
      await hlOrderFills(
        lagging,
        '0xu',
        { oid: 9, startTime: 0 },
        '2',
        'history',
      ),
    ).toBeNull()
  })
})

describe('memoizedHlOrderFills', () => {
  test("reads an order's fills once per filled size; a lagging history is asked again", async () => {
    let fills: unknown[] = [fill()]
    let reads = 0
    const post: HlPost = async () => {
      reads++
      return fills
    }
    const read = memoizedHlOrderFills()
    const order = { oid: 9, startTime: 0 }
    // the history lags: null, not kept
    expect(await read(post, '0xu', order, '2', 'urgent')).toBeNull()
    fills = [fill(), fill({ px: '102', fee: '0.0459' })]
    const whole = { averagePrice: '101', feeUsd: '0.0909' }
    expect(await read(post, '0xu', order, '2', 'urgent')).toEqual(whole)
    expect(await read(post, '0xU', order, '2', 'urgent')).toEqual(whole)
    expect(reads).toBe(2)
    // a larger filled size, another order, another user: read again
    fills = [...fills, fill({ px: '104' }), fill({ oid: 10 })]
    expect(await read(post, '0xu', order, '3', 'urgent')).toMatchObject({
      averagePrice: '102',
    })
    await read(post, '0xu', { oid: 10, startTime: 0 }, '1', 'urgent')
    await read(post, '0xv', order, '2', 'urgent')
    expect(reads).toBe(5)
  })
})
