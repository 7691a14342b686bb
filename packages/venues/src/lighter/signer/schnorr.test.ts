import { describe, expect, test } from 'vitest'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import data from './lighterCryptoData.json' with { type: 'json' }
import { poseidon2 } from './poseidon2.js'
import { quinticExtension as f } from './quinticExtension.js'
import { schnorr } from './schnorr.js'

const cases = data.upstream_vectors.schnorr_fixed_k.cases
const self = data.self_computed_vectors
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('schnorr', () => {
  test.each(cases.map((c, i) => [i, c] as const))(
    'behavior: upstream TestComparativeSchnorrSignAndVerify case %i',
    (_, c) => {
      const sk = ecgfp5Scalar.fromLimbs(c.sk)
      const m = f.fromLimbs(c.hashed_message)
      const sig = schnorr.sign(m, sk, ecgfp5Scalar.fromLimbs(c.k))
      expect(sig.s).toBe(ecgfp5Scalar.fromLimbs(c.s))
      expect(sig.e).toBe(ecgfp5Scalar.fromLimbs(c.e))
      expect(schnorr.verify(schnorr.publicKey(sk), m, sig)).toBe(true)
    },
  )

  test('behavior: public key of the self-computed key vector', () => {
    const sk = ecgfp5Scalar.fromBytes(Buffer.from(self.sk_le_hex, 'hex'))
    expect(f.toHex(schnorr.publicKey(sk))).toBe(self.pk_le_hex)
  })

  test('behavior: fixed-k signature of the CreateOrder hash (self-computed)', () => {
    const sk = ecgfp5Scalar.fromBytes(Buffer.from(self.sk_le_hex, 'hex'))
    const m = f.fromBytes(Buffer.from(self.create_order.tx_hash, 'hex'))
    const k = ecgfp5Scalar.fromLimbs(cases[0]?.k ?? [])
    const sig = schnorr.sign(m, sk, k)
    expect(hex(schnorr.toBytes(sig))).toBe(
      self.create_order.sig_s_e_hex_with_k_of_upstream_case0,
    )
  })

  test('behavior: random-nonce sign -> verify, and signatures differ', () => {
    const sk = ecgfp5Scalar.random()
    const pk = schnorr.publicKey(sk)
    const m = poseidon2.hashToQuinticExtension([1n, 2n, 3n])
    const a = schnorr.sign(m, sk)
    const b = schnorr.sign(m, sk)
    expect(a.e).not.toBe(b.e)
    expect(schnorr.verify(pk, m, a)).toBe(true)
    expect(schnorr.verify(pk, m, schnorr.fromBytes(schnorr.toBytes(b)))).toBe(
      true,
    )
  })

  test('error: verify rejects a wrong message, key or tampered signature', () => {
    const sk = ecgfp5Scalar.random()
    const pk = schnorr.publicKey(sk)
    const m = poseidon2.hashToQuinticExtension([42n])
    const sig = schnorr.sign(m, sk)
    const other = poseidon2.hashToQuinticExtension([43n])
    expect(schnorr.verify(pk, other, sig)).toBe(false)
    expect(schnorr.verify(schnorr.publicKey(sk + 1n), m, sig)).toBe(false)
    expect(schnorr.verify(pk, m, { s: sig.s + 1n, e: sig.e })).toBe(false)
    expect(schnorr.verify(pk, m, { s: sig.s, e: sig.e + ecgfp5Scalar.N })).toBe(
      false,
    )
  })

  test('behavior: bytes are s || e little-endian; non-canonical reduces', () => {
    const sig = { s: 1n, e: 2n }
    const bytes = schnorr.toBytes(sig)
    expect(bytes[0]).toBe(1)
    expect(bytes[40]).toBe(2)
    const big = new Uint8Array(bytes)
    const nPlusOne = Buffer.alloc(40)
    let v = ecgfp5Scalar.N + 1n
    for (let i = 0; i < 40; i++) {
      nPlusOne[i] = Number(v & 0xffn)
      v >>= 8n
    }
    big.set(nPlusOne, 0)
    expect(schnorr.fromBytes(big).s).toBe(1n)
    expect(() => schnorr.fromBytes(new Uint8Array(79))).toThrow(RangeError)
  })

  test('behavior: time of one sign (warm table)', () => {
    const sk = ecgfp5Scalar.random()
    const m = poseidon2.hashToQuinticExtension([7n])
    schnorr.sign(m, sk)
    const runs = 20
    const t0 = performance.now()
    for (let i = 0; i < runs; i++) schnorr.sign(m, sk)
    const perSign = (performance.now() - t0) / runs
    console.info(`lighter schnorr sign: ${perSign.toFixed(2)} ms/op`)
    expect(perSign).toBeLessThan(100)
  })
})
