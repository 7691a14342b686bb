import { describe, expect, test } from 'vitest'
import { createHlUserFills, hlOrderFills } from './hlOrderFills.js'
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

describe('createHlUserFills', () => {
  let tid = 0
  const traded = (over: Record<string, unknown> = {}) =>
    fill({ tid: ++tid, ...over })
  /** a venue whose history is `fills`, answering from `startTime` on */
  function venue() {
    const v = {
      fills: [] as Record<string, unknown>[],
      reads: [] as number[],
      post: (async (_path, body) => {
        const from = (body as { startTime: number }).startTime
        v.reads.push(from)
        return v.fills.filter((f) => (f.time as number) >= from)
      }) as HlPost,
    }
    return v
  }

  test("reads a user's history once for all their orders; a lagging history is asked again", async () => {
    const v = venue()
    let now = 10_000
    const read = createHlUserFills({ now: () => now })
    v.fills = [traded(), traded({ oid: 10, px: '50' })]
    // the history lags: null until the fills add up
    expect(
      await read(v.post, '0xu', { oid: 9, startTime: 0 }, '2', 'urgent'),
    ).toBeNull()
    v.fills.push(traded({ px: '102', fee: '0.0459', time: 6_000 }))
    now = 11_000
    const whole = { averagePrice: '101', feeUsd: '0.0909' }
    expect(
      await read(v.post, '0xu', { oid: 9, startTime: 0 }, '2', 'urgent'),
    ).toEqual(whole)
    // the other order, the same user in another case: from the book
    expect(
      await read(v.post, '0xU', { oid: 10, startTime: 500 }, '1', 'urgent'),
    ).toMatchObject({ averagePrice: '50' })
    expect(
      await read(v.post, '0xu', { oid: 9, startTime: 0 }, '2', 'urgent'),
    ).toEqual(whole)
    expect(v.reads).toEqual([0, 0])
    // a later fill: read on from the last read, less the history's lag;
    // fills read twice are booked once (by trade id)
    v.fills.push(traded({ px: '104', time: 9_000 }))
    expect(
      await read(v.post, '0xu', { oid: 9, startTime: 0 }, '3', 'urgent'),
    ).toMatchObject({ averagePrice: '102' })
    expect(v.reads).toEqual([0, 0, 6_000])
    // another user has a book of their own
    await read(v.post, '0xv', { oid: 9, startTime: 0 }, '3', 'urgent')
    expect(v.reads).toEqual([0, 0, 6_000, 0])
    // a fill that shows later than the lag: the next lookup reads the
    // order's whole span
    v.fills.push(traded({ oid: 11, time: 2_000 }))
    const late = { oid: 11, startTime: 2_000 }
    expect(await read(v.post, '0xu', late, '1', 'urgent')).toBeNull()
    expect(await read(v.post, '0xu', late, '1', 'urgent')).toMatchObject({
      averagePrice: '100',
    })
    expect(v.reads).toEqual([0, 0, 6_000, 0, 6_000, 2_000])
  })

  test('an order older than the book is read from its own time; concurrent lookups of a user share one read', async () => {
    const v = venue()
    const read = createHlUserFills({ now: () => 10_000 })
    v.fills = [
      traded({ oid: 1, time: 100 }),
      traded({ oid: 2, time: 2_000 }),
      traded({ oid: 3, time: 3_000 }),
    ]
    await read(v.post, '0xu', { oid: 2, startTime: 2_000 }, '1', 'urgent')
    expect(
      await read(v.post, '0xu', { oid: 1, startTime: 100 }, '1', 'urgent'),
    ).toMatchObject({ averagePrice: '100' })
    expect(v.reads).toEqual([2_000, 100])
    v.fills.push(
      traded({ oid: 4, time: 9_500 }),
      traded({ oid: 5, time: 9_600 }),
    )
    const both = await Promise.all([
      read(v.post, '0xu', { oid: 4, startTime: 9_000 }, '1', 'urgent'),
      read(v.post, '0xu', { oid: 5, startTime: 9_000 }, '1', 'urgent'),
    ])
    expect(both.map((f) => f?.averagePrice)).toEqual(['100', '100'])
    expect(v.reads).toEqual([2_000, 100, 5_000])
  })

  test('a read that fails leaves the book as it was and is tried again', async () => {
    const v = venue()
    const read = createHlUserFills({ now: () => 10_000 })
    v.fills = [traded()]
    let refuse = true
    const post: HlPost = async (...args) => {
      if (refuse) throw new Error('budget is spent')
      return v.post(...args)
    }
    await expect(
      read(post, '0xu', { oid: 9, startTime: 0 }, '1', 'urgent'),
    ).rejects.toThrow(/budget/)
    refuse = false
    expect(
      await read(post, '0xu', { oid: 9, startTime: 0 }, '1', 'urgent'),
    ).toMatchObject({ averagePrice: '100' })
  })
})
