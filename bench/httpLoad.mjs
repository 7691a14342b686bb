// The load generator of bench/http.mjs, in its own process: runs autocannon
// with the JSON options in argv[2] and prints its result as one JSON line.
// A POST gets a fresh Idempotency-Key per request.
import autocannon from 'autocannon'

const o = JSON.parse(process.argv[2])
let n = 0
const result = await new Promise((resolve, reject) => {
  autocannon(
    {
      url: o.url,
      method: o.method ?? 'GET',
      headers: o.headers ?? {},
      ...(o.body ? { body: o.body } : {}),
      duration: o.seconds,
      connections: o.connections,
      ...(o.method === 'POST'
        ? {
            requests: [
              {
                setupRequest: (req) => ({
                  ...req,
                  headers: {
                    ...req.headers,
                    'idempotency-key': `bench-${process.pid}-${n++}`,
                  },
                }),
              },
            ],
          }
        : {}),
    },
    (err, res) => (err ? reject(err) : resolve(res)),
  )
})
process.stdout.write(
  `${JSON.stringify({
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
  })}\n`,
)
