import fc from 'fast-check'
import { expect, test } from 'vitest'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const P = 0xffff_ffff_0000_0001n
const limb = fc.bigInt({ min: 0n, max: P - 1n })
const message = fc.array(limb, { minLength: 5, maxLength: 5 })
const secret = fc.bigInt({ min: 1n, max: ecgfp5Scalar.N - 1n })

test('property: 1,000 random keys and messages sign and verify; a tampered message or key does not', () => {
  fc.assert(
    fc.property(
      secret,
      message,
      fc.nat({ max: 4 }),
      fc.boolean(),
      (sk, limbs, at, tamperKey) => {
        const pk = schnorr.publicKey(sk)
        const m = f.fromLimbs(limbs)
        const sig = schnorr.sign(m, sk)
        expect(schnorr.verify(pk, m, sig)).toBe(true)
        // each case also checks one forgery: another key, or one limb off
        if (tamperKey) {
          const other = schnorr.publicKey(sk === 1n ? 2n : sk - 1n)
          expect(schnorr.verify(other, m, sig)).toBe(false)
        } else {
          const changed = [...limbs]
          changed[at] = ((changed[at] ?? 0n) + 1n) % P
          expect(schnorr.verify(pk, f.fromLimbs(changed), sig)).toBe(false)
        }
      },
    ),
    { numRuns: 1_000 },
  )
}, 180_000)
