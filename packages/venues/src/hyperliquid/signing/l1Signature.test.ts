import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, test } from 'vitest'
import { recoverL1Signer, signL1Action } from './l1Signature.js'
import { orderAction, scheduleCancelAction } from './orderAction.js'
import { DUMMY, TEST_ADDRESS, TEST_KEY, VAULT } from './testVectors.js'

const order = (cloid?: string) =>
  orderAction([
    {
      asset: 1,
      isBuy: true,
      price: '100',
      size: '100',
      reduceOnly: false,
      tif: 'Gtc',
      cloid,
    },
  ])

const sign = (
  action: object,
  isMainnet: boolean,
  vaultAddress = null as string | null,
) =>
  signL1Action({
    privateKey: TEST_KEY,
    action,
    vaultAddress,
    nonce: 0,
    isMainnet,
  })

describe('signL1Action (python tests/signing_test.py vectors)', () => {
  test('vector: L1 dummy mainnet', async () => {
    expect(await sign(DUMMY, true)).toEqual({
      r: '0x053749d5b30552aeb2fca34b530185976545bb22d0b3ce6f62e31be961a59298',
      s: '0x755c40ba9bf05223521753995abb2f73ab3229be8ec921f350cb447e384d8ed8',
      v: 27,
    })
  })

  test('vector: L1 dummy testnet', async () => {
    expect(await sign(DUMMY, false)).toEqual({
      r: '0x542af61ef1f429707e3c76c5293c80d01f74ef853e34b76efffcb57e574f9510',
      s: '0x17b8b32f086e8cdede991f1e2c529f5dd5297cbe8128500e00cbaf766204a613',
      v: 28,
    })
  })

  test('vector: L1 order mainnet', async () => {
    expect(await sign(order(), true)).toEqual({
      r: '0xd65369825a9df5d80099e513cce430311d7d26ddf477f5b3a33d2806b100d78e',
      s: '0x2b54116ff64054968aa237c20ca9ff68000f977c93289157748a3162b6ea940e',
      v: 28,
    })
  })

  test('vector: L1 order testnet', async () => {
    expect(await sign(order(), false)).toEqual({
      r: '0x82b2ba28e76b3d761093aaded1b1cdad4960b3af30212b343fb2e6cdfa4e3d54',
      s: '0x6b53878fc99d26047f4d7e8c90eb98955a109f44209163f52d8dc4278cbbd9f5',
      v: 27,
    })
  })

  test('vector: L1 order with cloid mainnet', async () => {
    expect(
      await sign(order('0x00000000000000000000000000000001'), true),
    ).toEqual({
      r: '0x041ae18e8239a56cacbc5dad94d45d0b747e5da11ad564077fcac71277a946e3',
      s: '0x3c61f667e747404fe7eea8f90ab0e76cc12ce60270438b2058324681a00116da',
      v: 27,
    })
  })

  test('vector: L1 order with cloid testnet', async () => {
    expect(
      await sign(order('0x00000000000000000000000000000001'), false),
    ).toEqual({
      r: '0xeba0664bed2676fc4e5a743bf89e5c7501aa6d870bdb9446e122c9466c5cd16d',
      s: '0x7f3e74825c9114bc59086f1eebea2928c190fdfbfde144827cb02b85bbe90988',
      v: 28,
    })
  })

  test('vector: L1 dummy with vault mainnet (r keeps its leading zero byte)', async () => {
    expect(await sign(DUMMY, true, VAULT)).toEqual({
      r: '0x003c548db75e479f8012acf3000ca3a6b05606bc2ec0c29c50c515066a326239',
      s: '0x4d402be7396ce74fbba3795769cda45aec00dc3125a984f2a9f23177b190da2c',
      v: 28,
    })
  })

  test('vector: L1 dummy with vault testnet', async () => {
    expect(await sign(DUMMY, false, VAULT)).toEqual({
      r: '0xe281d2fb5c6e25ca01601f878e4d69c965bb598b88fac58e475dd1f5e56c362b',
      s: '0x7ddad27e9a238d045c035bc606349d075d5c5cd00a6cd1da23ab5c39d4ef0f60',
      v: 27,
    })
  })

  test('vector: scheduleCancel without and with time (mainnet + testnet)', async () => {
    expect(await sign(scheduleCancelAction(), true)).toEqual({
      r: '0x6cdfb286702f5917e76cd9b3b8bf678fcc49aec194c02a73e6d4f16891195df9',
      s: '0x6557ac307fa05d25b8d61f21fb8a938e703b3d9bf575f6717ba21ec61261b2a0',
      v: 27,
    })
    expect(await sign(scheduleCancelAction(), false)).toEqual({
      r: '0xc75bb195c3f6a4e06b7d395acc20bbb224f6d23ccff7c6a26d327304e6efaeed',
      s: '0x342f8ede109a29f2c0723bd5efb9e9100e3bbb493f8fb5164ee3d385908233df',
      v: 28,
    })
    expect(await sign(scheduleCancelAction(123456789), true)).toEqual({
      r: '0x609cb20c737945d070716dcc696ba030e9976fcf5edad87afa7d877493109d55',
      s: '0x16c685d63b5c7a04512d73f183b3d7a00da5406ff1f8aad33f8ae2163bab758b',
      v: 28,
    })
    expect(await sign(scheduleCancelAction(123456789), false)).toEqual({
      r: '0x4e4f2dbd4107c69783e251b7e1057d9f2b9d11cee213441ccfa2be63516dc5bc',
      s: '0x706c656b23428c8ba356d68db207e11139ede1670481a9e01ae2dfcdb0e1a678',
      v: 27,
    })
  })

  test('vector: createSubAccount mainnet (s padded to 32 bytes)', async () => {
    expect(
      await sign({ type: 'createSubAccount', name: 'example' }, true),
    ).toEqual({
      r: '0x51096fe3239421d16b671e192f574ae24ae14329099b6db28e479b86cdd6caa7',
      s: '0x0b71f7d293af92d3772572afb8b102d167a7cef7473388286bc01f52a5c5b423',
      v: 27,
    })
  })

  test('behavior: a viem account signs the same as its key', async () => {
    const account = privateKeyToAccount(TEST_KEY)
    const input = {
      action: DUMMY,
      vaultAddress: null,
      nonce: 5,
      isMainnet: true,
    }
    expect(await signL1Action({ account, ...input })).toEqual(
      await signL1Action({ privateKey: TEST_KEY, ...input }),
    )
  })

  test('behavior: recoverL1Signer returns the signer; other inputs do not', async () => {
    const input = {
      action: order(),
      vaultAddress: VAULT,
      nonce: 1700000000000,
      expiresAfter: 1700000060000,
      isMainnet: true,
    }
    const signature = await signL1Action({ privateKey: TEST_KEY, ...input })
    expect(await recoverL1Signer({ ...input, signature })).toBe(TEST_ADDRESS)
    expect(
      await recoverL1Signer({ ...input, isMainnet: false, signature }),
    ).not.toBe(TEST_ADDRESS)
    expect(
      await recoverL1Signer({ ...input, nonce: input.nonce + 1, signature }),
    ).not.toBe(TEST_ADDRESS)
    expect(
      await recoverL1Signer({ ...input, expiresAfter: undefined, signature }),
    ).not.toBe(TEST_ADDRESS)
  })

  test('error: no signer', async () => {
    await expect(
      signL1Action({
        action: DUMMY,
        vaultAddress: null,
        nonce: 0,
        isMainnet: true,
      } as never),
    ).rejects.toThrow(RangeError)
  })
})
