import { encode } from '@msgpack/msgpack'
import { bytesToHex, keccak256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { actionHash } from './actionHash.js'
import { orderAction } from './orderAction.js'
import { DUMMY, VAULT } from './testVectors.js'

describe('actionHash', () => {
  test('vector: python test_phantom_agent_creation_matches_production', () => {
    const action = orderAction([
      {
        asset: 4,
        isBuy: true,
        price: '1670.1',
        size: '0.0147',
        reduceOnly: false,
        tif: 'Ioc',
      },
    ])
    expect(actionHash(action, null, 1677777606040)).toBe(
      '0x0fcbeda5ae3c4950a548021552a4fea2226858c4453571bf3f24ba017eac2908',
    )
  })

  test('vector: msgpack bytes of the dummy action (uint64 for 1e11)', () => {
    expect(bytesToHex(encode(DUMMY))).toBe(
      '0x82a474797065a564756d6d79a36e756dcf000000174876e800',
    )
  })

  test('behavior: layout nonce ‖ vault flag ‖ vault ‖ 0x00 ‖ expiresAfter', () => {
    const packed = bytesToHex(encode(DUMMY)).slice(2)
    const nonce = (7).toString(16).padStart(16, '0')
    const exp = (1700000000000).toString(16).padStart(16, '0')
    expect(actionHash(DUMMY, null, 7)).toBe(keccak256(`0x${packed}${nonce}00`))
    expect(actionHash(DUMMY, VAULT, 7, 1700000000000)).toBe(
      keccak256(`0x${packed}${nonce}01${VAULT.slice(2)}00${exp}`),
    )
  })

  test('behavior: undefined keys are dropped, key order matters', () => {
    expect(
      actionHash({ type: 'scheduleCancel', time: undefined }, null, 0),
    ).toBe(actionHash({ type: 'scheduleCancel' }, null, 0))
    expect(actionHash({ a: 1, b: 2 }, null, 0)).not.toBe(
      actionHash({ b: 2, a: 1 }, null, 0),
    )
  })

  test('behavior: vault address case does not change the hash', () => {
    expect(actionHash(DUMMY, VAULT.toUpperCase().replace('0X', '0x'), 0)).toBe(
      actionHash(DUMMY, VAULT, 0),
    )
  })

  test('error: bad nonce, expiry or vault', () => {
    expect(() => actionHash(DUMMY, null, -1)).toThrow(RangeError)
    expect(() => actionHash(DUMMY, null, 1.5)).toThrow(RangeError)
    expect(() => actionHash(DUMMY, null, 0, 2 ** 60)).toThrow(RangeError)
    expect(() => actionHash(DUMMY, '0x1234', 0)).toThrow(RangeError)
  })
})
