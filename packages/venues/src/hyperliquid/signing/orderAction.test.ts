import { describe, expect, test } from 'vitest'
import {
  cancelByCloidAction,
  orderAction,
  scheduleCancelAction,
} from './orderAction.js'

const base = {
  asset: 1,
  isBuy: true,
  price: '100',
  size: '100',
  reduceOnly: false,
  tif: 'Gtc',
} as const

describe('orderAction', () => {
  test('default: keys in wire order, grouping na, no c or builder', () => {
    expect(JSON.stringify(orderAction([base]))).toBe(
      '{"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Gtc"}}}],"grouping":"na"}',
    )
  })

  test('behavior: cloid last in the order, builder lowercased after grouping', () => {
    const action = orderAction(
      [
        {
          ...base,
          tif: 'Alo',
          cloid: '0x000000000000000000000000000000AB',
        },
      ],
      {
        address: '0x1719884EB866cb12b2287399b15f7db5e7d775ea',
        feeTenthsBp: 10,
      },
    )
    expect(JSON.stringify(action)).toBe(
      '{"type":"order","orders":[{"a":1,"b":true,"p":"100","s":"100","r":false,"t":{"limit":{"tif":"Alo"}},"c":"0x000000000000000000000000000000ab"}],"grouping":"na","builder":{"b":"0x1719884eb866cb12b2287399b15f7db5e7d775ea","f":10}}',
    )
  })

  test('error: wire decimals, cloid, asset, tif, builder, empty', () => {
    for (const price of ['100.0', '1e3', '-1', '0', '.5', '01']) {
      expect(() => orderAction([{ ...base, price }])).toThrow(RangeError)
    }
    expect(() => orderAction([{ ...base, cloid: '0x01' }])).toThrow(RangeError)
    expect(() => orderAction([{ ...base, asset: -1 }])).toThrow(RangeError)
    expect(() => orderAction([{ ...base, tif: 'Fok' as never }])).toThrow(
      RangeError,
    )
    expect(() =>
      orderAction([base], { address: '0x12', feeTenthsBp: 1 }),
    ).toThrow(RangeError)
    expect(() =>
      orderAction([base], {
        address: '0x1719884eb866cb12b2287399b15f7db5e7d775ea',
        feeTenthsBp: 1001,
      }),
    ).toThrow(RangeError)
    expect(() => orderAction([])).toThrow(RangeError)
  })
})

describe('cancelByCloidAction', () => {
  test('default: long key names asset, cloid', () => {
    expect(
      JSON.stringify(
        cancelByCloidAction([
          { asset: 3, cloid: '0x00000000000000000000000000000001' },
        ]),
      ),
    ).toBe(
      '{"type":"cancelByCloid","cancels":[{"asset":3,"cloid":"0x00000000000000000000000000000001"}]}',
    )
  })

  test('error: bad cloid or empty', () => {
    expect(() => cancelByCloidAction([{ asset: 3, cloid: '1' }])).toThrow(
      RangeError,
    )
    expect(() => cancelByCloidAction([])).toThrow(RangeError)
  })
})

describe('scheduleCancelAction', () => {
  test('default: without time clears; with time sets', () => {
    expect(scheduleCancelAction()).toEqual({ type: 'scheduleCancel' })
    expect(Object.keys(scheduleCancelAction())).toEqual(['type'])
    expect(scheduleCancelAction(123456789)).toEqual({
      type: 'scheduleCancel',
      time: 123456789,
    })
    expect(() => scheduleCancelAction(1.5)).toThrow(RangeError)
  })
})
