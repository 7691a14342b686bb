import { describe, expect, test } from 'vitest'
import { type EcPoint, ecgfp5 } from './ecgfp5.js'
import { ecgfp5Scalar } from './ecgfp5Scalar.js'
import vectors from './ecgfp5Vectors.json' with { type: 'json' }
import data from './lighterCryptoData.json' with { type: 'json' }
import { quinticExtension as f } from './quinticExtension.js'

type Limbs = readonly string[]
const point = (p: { x: Limbs; z: Limbs; u: Limbs; t: Limbs }): EcPoint => ({
  x: f.fromLimbs(p.x),
  z: f.fromLimbs(p.z),
  u: f.fromLimbs(p.u),
  t: f.fromLimbs(p.t),
})
const fp5 = (l: Limbs) => f.fromLimbs(l)
const ws = vectors.encodings.w1_to_w7.map(fp5)
const decodeOrThrow = (w: ReturnType<typeof fp5>): EcPoint => {
  const p = ecgfp5.decode(w)
  if (p === null) throw new TypeError('expected a decodable point')
  return p
}

describe('ecgfp5', () => {
  test('default: curve constants and generator equal the data file', () => {
    const c = data.ecgfp5
    expect(ecgfp5.A).toEqual(fp5(c.a))
    expect(ecgfp5.B).toEqual(fp5(c.b))
    expect(ecgfp5.GENERATOR).toEqual(point(c.generator_xzut))
    expect(ecgfp5.NEUTRAL).toEqual(point(c.neutral_xzut))
    expect(ecgfp5Scalar.N).toBe(BigInt(c.group_order_n))
  })

  test('behavior: encode reproduces upstream TestEncode', () => {
    const v = data.upstream_vectors.ecgfp5_encode
    expect(ecgfp5.encode(point(v.point_xzut))).toEqual(fp5(v.encoded))
    expect(ecgfp5.encode(ecgfp5.NEUTRAL)).toEqual(f.ZERO)
  })

  test('behavior: add reproduces upstream TestAdd limb for limb', () => {
    const v = vectors.add
    expect(ecgfp5.add(point(v.a), point(v.b))).toEqual(point(v.expected))
  })

  test('behavior: double reproduces upstream TestDouble', () => {
    const v = vectors.double
    const d = ecgfp5.double(point(v.point))
    expect(d).toEqual(point(v.expected))
    expect(ecgfp5.equals(d, point(v.expected))).toBe(true)
  })

  test('behavior: mul reproduces upstream TestScalarMul', () => {
    const v = vectors.scalar_mul
    const k = ecgfp5Scalar.fromLimbs(v.scalar)
    const r = ecgfp5.mul(point(v.point), k)
    expect(ecgfp5.equals(r, point(v.expected))).toBe(true)
    expect(ecgfp5.equals(r, point(v.point))).toBe(false)
  })

  test('behavior: decode/encode and the group law on upstream TestBasicOps', () => {
    const [p1, p2, p3, p4, p5, p6, p7] = ws.map(decodeOrThrow)
    if (!p1 || !p2 || !p3 || !p4 || !p5 || !p6 || !p7) throw new TypeError()
    ws.forEach((w, i) => {
      expect(ecgfp5.encode(decodeOrThrow(w)), `w${i + 1}`).toEqual(w)
    })
    const p0 = decodeOrThrow(f.ZERO)
    expect(ecgfp5.isNeutral(p0)).toBe(true)
    expect(ecgfp5.isNeutral(p1)).toBe(false)
    expect(ecgfp5.equals(p1, p2)).toBe(false)
    const enc = ecgfp5.encode
    expect(enc(ecgfp5.add(p1, p2))).toEqual(ws[2])
    expect(enc(ecgfp5.add(p1, p1))).toEqual(ws[3])
    expect(enc(ecgfp5.double(p2))).toEqual(ws[4])
    expect(enc(ecgfp5.add(ecgfp5.double(p1), p2))).toEqual(ws[5])
    expect(enc(ecgfp5.add(ecgfp5.add(p1, p2), p2))).toEqual(ws[6])
    expect(enc(ecgfp5.double(p0))).toEqual(f.ZERO)
    expect(enc(ecgfp5.add(p0, p1))).toEqual(ws[0])
    expect(enc(ecgfp5.add(p1, p0))).toEqual(ws[0])
  })

  test('error: upstream invalid encodings do not decode', () => {
    for (const w of vectors.invalid_encodings) {
      expect(ecgfp5.decode(fp5(w))).toBeNull()
    }
  })

  test('behavior: mulGenerator agrees with mul and the group order', () => {
    const k = ecgfp5Scalar.fromLimbs(
      data.upstream_vectors.schnorr_fixed_k.cases[0]?.k ?? [],
    )
    const viaTable = ecgfp5.mulGenerator(k)
    expect(ecgfp5.equals(viaTable, ecgfp5.mul(ecgfp5.GENERATOR, k))).toBe(true)
    expect(ecgfp5.isNeutral(ecgfp5.mulGenerator(0n))).toBe(true)
    const nMinus1 = ecgfp5.mulGenerator(ecgfp5Scalar.N - 1n)
    expect(ecgfp5.equals(nMinus1, ecgfp5.neg(ecgfp5.GENERATOR))).toBe(true)
    expect(ecgfp5.isNeutral(ecgfp5.add(nMinus1, ecgfp5.GENERATOR))).toBe(true)
  })
})
