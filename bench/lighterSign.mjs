// Lighter L2 signing throughput of our pure-TypeScript signer: Schnorr over
// ECgFp5 with k·G by plain double-and-add (naive), by the signer's generic
// 4-bit window `ecgfp5.mul` (no table), and by the fixed-base table
// `schnorr.sign` uses (optimized); a whole CreateOrder tx; verification.
// Run with `npm run bench` (builds first) or, after `npm run build`,
// `node bench/lighterSign.mjs`. BENCH_SIGN_SECONDS (2) is the time per row,
// measured in slices of BENCH_SIGN_SLICE_MS (500) taking turns.
import {
  createOrder,
  ecgfp5,
  ecgfp5Scalar,
  generateLighterKeyPair,
  poseidon2,
  quinticExtension,
  schnorr,
} from '../packages/venues/dist/index.js'

const SECONDS = Number(process.env.BENCH_SIGN_SECONDS ?? 2)
const SLICE_MS = Number(process.env.BENCH_SIGN_SLICE_MS ?? 500)
const WARMUP_MS = 300

/** `k * G` by plain MSB-first double-and-add over the bits of k. */
function naiveMulGenerator(k) {
  let r = ecgfp5.NEUTRAL
  for (let i = BigInt(k.toString(2).length) - 1n; i >= 0n; i--) {
    r = ecgfp5.double(r)
    if ((k >> i) & 1n) r = ecgfp5.add(r, ecgfp5.GENERATOR)
  }
  return r
}

/** `schnorr.sign` with another k·G: same nonce, challenge and s. */
function signWith(mulGenerator, message, sk) {
  const k = ecgfp5Scalar.random()
  const r = ecgfp5.encode(mulGenerator(k))
  const e = ecgfp5Scalar.fromFp5(
    poseidon2.hashToQuinticExtension([...r, ...message]),
  )
  return { s: ecgfp5Scalar.sub(k, ecgfp5Scalar.mul(e, sk)), e }
}

function check(ok, what) {
  if (!ok) throw new Error(`sanity check failed: ${what}`)
}

// The fixed-base table is built on the first k·G (before any key
// is made); time that once.
const t0 = performance.now()
ecgfp5.mulGenerator(1n)
const tableMs = performance.now() - t0

// Keys and 64 distinct messages (hashes, as tx hashes are), cycled.
const keys = generateLighterKeyPair()
const sk = ecgfp5Scalar.fromBytes(Buffer.from(keys.privateKey.slice(2), 'hex'))
const pk = quinticExtension.fromBytes(
  Buffer.from(keys.publicKey.slice(2), 'hex'),
)
const messages = Array.from({ length: 64 }, (_, i) =>
  poseidon2.hashToQuinticExtension([BigInt(i), 7n]),
)

// The three k·G agree, and every signing path verifies.
const probe = ecgfp5Scalar.random()
const viaTable = ecgfp5.mulGenerator(probe)
check(ecgfp5.equals(naiveMulGenerator(probe), viaTable), 'naive k·G')
check(ecgfp5.equals(ecgfp5.mul(ecgfp5.GENERATOR, probe), viaTable), 'mul')
check(
  quinticExtension.equals(schnorr.publicKey(sk), pk),
  'public key of the generated pair',
)
const m0 = messages[0]
check(schnorr.verify(pk, m0, signWith(naiveMulGenerator, m0, sk)), 'naive')
check(
  schnorr.verify(
    pk,
    m0,
    signWith((k) => ecgfp5.mul(ecgfp5.GENERATOR, k), m0, sk),
  ),
  'window',
)
check(schnorr.verify(pk, m0, schnorr.sign(m0, sk)), 'optimized')
check(!schnorr.verify(pk, messages[1], schnorr.sign(m0, sk)), 'wrong message')

const header = {
  chainId: 304,
  expiredAt: Date.now() + 600_000,
  accountIndex: 1,
  apiKeyIndex: 3,
}
let orderSeq = 0
function oneOrder() {
  orderSeq++
  return createOrder({
    ...header,
    nonce: orderSeq,
    privateKey: keys.privateKey,
    marketIndex: 1,
    clientOrderIndex: orderSeq,
    baseAmount: 1000 + (orderSeq % 97),
    price: 350_000 + (orderSeq % 1013),
    isAsk: orderSeq % 2 === 1,
    type: 0,
    timeInForce: 0,
    reduceOnly: false,
    orderExpiry: 0,
  })
}
{
  const tx = oneOrder()
  const info = JSON.parse(tx.txInfo)
  const sig = schnorr.fromBytes(Buffer.from(info.Sig, 'base64'))
  const hash = quinticExtension.fromBytes(Buffer.from(tx.txHash, 'hex'))
  check(schnorr.verify(pk, hash, sig), 'CreateOrder signature')
}

const signatures = messages.map((m) => schnorr.sign(m, sk))

const rows = [
  {
    name: 'sign, k·G by double-and-add (naive)',
    op: (i) => signWith(naiveMulGenerator, messages[i & 63], sk),
  },
  {
    name: 'sign, k·G by ecgfp5.mul (4-bit window, no table)',
    op: (i) =>
      signWith((k) => ecgfp5.mul(ecgfp5.GENERATOR, k), messages[i & 63], sk),
  },
  {
    name: 'sign, k·G by fixed-base table (schnorr.sign, optimized)',
    op: (i) => schnorr.sign(messages[i & 63], sk),
  },
  { name: 'CreateOrder tx (hash + sign + JSON)', op: () => oneOrder() },
  {
    name: 'verify (schnorr.verify)',
    op: (i) => {
      if (!schnorr.verify(pk, messages[i & 63], signatures[i & 63])) {
        throw new Error('a valid signature failed to verify')
      }
    },
  },
]

/** Runs `op` for about `ms`; returns [ops, elapsed ms]. */
function runFor(op, ms) {
  let n = 0
  const start = performance.now()
  const until = start + ms
  let now = start
  while (now < until) {
    op(n)
    n++
    now = performance.now()
  }
  return [n, now - start]
}

for (const row of rows) {
  runFor(row.op, WARMUP_MS)
  row.ops = 0
  row.ms = 0
}
const slices = Math.max(1, Math.round((SECONDS * 1000) / SLICE_MS))
for (let s = 0; s < slices; s++) {
  for (const row of rows) {
    const [n, ms] = runFor(row.op, SLICE_MS)
    row.ops += n
    row.ms += ms
  }
}

const naiveRate = (rows[0].ops / rows[0].ms) * 1000
const optRate = (rows[2].ops / rows[2].ms) * 1000
console.log(
  `Lighter signing, Node ${process.version}, ${slices} slices of ` +
    `${SLICE_MS} ms per row; fixed-base table built in ` +
    `${tableMs.toFixed(1)} ms\n`,
)
console.log('| operation | ops | s | ops/s | ms/op | vs naive sign |')
console.log('|---|---|---|---|---|---|')
for (const row of rows) {
  const rate = (row.ops / row.ms) * 1000
  console.log(
    `| ${row.name} | ${row.ops} | ${(row.ms / 1000).toFixed(1)} | ` +
      `${rate.toFixed(rate < 100 ? 1 : 0)} | ` +
      `${(row.ms / row.ops).toFixed(2)} | ${(rate / naiveRate).toFixed(2)} |`,
  )
}
console.log(`\noptimized / naive sign: ${(optRate / naiveRate).toFixed(2)}x`)
