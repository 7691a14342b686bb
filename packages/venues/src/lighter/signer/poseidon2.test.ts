import { describe, expect, test } from 'vitest'
import data from './lighterCryptoData.json' with { type: 'json' }
import { poseidon2 } from './poseidon2.js'
import { poseidon2Constants } from './poseidon2Constants.js'
import { quinticExtension } from './quinticExtension.js'

const big = (xs: readonly string[]) => xs.map((x) => BigInt(x))
const up = data.upstream_vectors

describe('poseidon2', () => {
  test('default: constants equal the data file', () => {
    const p = data.poseidon2
    expect(poseidon2Constants.external.map((r) => [...r])).toEqual(
      p.external_constants.map(big),
    )
    expect([...poseidon2Constants.internal]).toEqual(big(p.internal_constants))
    expect([...poseidon2Constants.matrixDiag]).toEqual(big(p.matrix_diag_12))
    expect(poseidon2Constants.width).toBe(p.width)
    expect(poseidon2Constants.rate).toBe(p.rate)
    expect(poseidon2Constants.partialRounds).toBe(p.partial_rounds)
    expect(poseidon2Constants.fullRoundsHalf * 2).toBe(p.full_rounds)
  })

  test('behavior: permute reproduces upstream TestPermute', () => {
    const v = up.poseidon2_permute
    expect(poseidon2.permute(big(v.input))).toEqual(big(v.output))
  })

  test('behavior: hashNToMNoPad reproduces upstream TestHashNToMNoPad', () => {
    const v = up.poseidon2_hash_n_to_m_no_pad_12
    expect(poseidon2.hashNToMNoPad(big(v.input), 12)).toEqual(big(v.output))
  })

  test('behavior: hashToQuinticExtension is the first 5 outputs', () => {
    const v = up.poseidon2_hash_n_to_m_no_pad_12
    expect(poseidon2.hashToQuinticExtension(big(v.input))).toEqual(
      big(v.output).slice(0, 5),
    )
    expect(poseidon2.hashNoPad(big(v.input))).toEqual(big(v.output).slice(0, 4))
  })

  test('behavior: auth-token words hash (self-computed vector)', () => {
    const v = data.self_computed_vectors.auth_token_hash
    // the message's UTF-8 bytes as 8-byte little-endian words, last one
    // zero-padded, as lighter-go ConstructAuthToken feeds them
    const bytes = Buffer.from(v.message, 'utf8')
    const words: bigint[] = []
    for (let i = 0; i < bytes.length; i += 8) {
      const chunk = Buffer.alloc(8)
      bytes.copy(chunk, 0, i, Math.min(i + 8, bytes.length))
      words.push(chunk.readBigUInt64LE())
    }
    expect(words).toEqual(big(v.words))
    const h = poseidon2.hashToQuinticExtension(words)
    expect(quinticExtension.toHex(h)).toBe(v.hash)
  })

  test('error: permute rejects a state of the wrong width', () => {
    expect(() => poseidon2.permute([1n, 2n])).toThrow(RangeError)
  })
})
