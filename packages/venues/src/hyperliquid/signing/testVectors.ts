/*
 * Test fixtures: hyperliquid-python-sdk `tests/signing_test.py` key and
 * inputs (see /work/shared/venues/hyperliquid.md §10).
 */
export const TEST_KEY =
  '0x0123456789012345678901234567890123456789012345678901234567890123' as const
export const TEST_ADDRESS = '0x14791697260E4c9A71f18484C9f997B308e59325'
export const VAULT = '0x1719884eb866cb12b2287399b15f7db5e7d775ea'
/** python `float_to_int_for_hashing(1000)` */
export const DUMMY = { type: 'dummy', num: 100000000000 } as const
