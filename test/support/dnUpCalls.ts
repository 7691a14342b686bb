/**
 * Calls on a running `dn up` for end-to-end tests: its HTTP API with an
 * API key, and the simulated engine itself through the simulator's
 * `POST /rpc`.
 */

export type Json = Record<string, unknown>

export function sleep(ms: number) {
  return new Promise((r) => setTimeout(r, ms))
}

export async function post(api: string, key: string, path: string, body: Json) {
  const res = await fetch(`${api}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  })
  const json = (await res.json()) as Json
  if (res.status >= 300) {
    throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`)
  }
  return json
}

export async function get(api: string, key: string, path: string) {
  const res = await fetch(`${api}${path}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return (await res.json()) as Json
}

export async function taskStatusBecomes(
  api: string,
  key: string,
  taskId: string,
  want: string,
): Promise<string> {
  let status = ''
  for (let i = 0; i < 300 && status !== want; i++) {
    await sleep(100)
    const t = await get(api, key, `/v1/delta-neutral/tasks/${taskId}`)
    status = (t.task as Json).status as string
  }
  return status
}

export async function orderStatusBecomes(
  api: string,
  key: string,
  orderId: string,
  want: readonly string[],
): Promise<string> {
  let status = ''
  for (let i = 0; i < 300 && !want.includes(status); i++) {
    await sleep(100)
    const o = await get(api, key, `/v1/perp/orders/${orderId}`)
    status = (o.order as Json).status as string
  }
  return status
}

/** A call on the simulated engine itself (`POST /rpc`), not the fakes. */
export async function rpc(
  sim: string,
  venue: string,
  method: string,
  args: unknown[],
) {
  const res = await fetch(`${sim}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ venue, method, args }),
  })
  const body = (await res.json()) as { ok: boolean; result: unknown }
  if (!body.ok) throw new Error(`${venue} ${method}: ${JSON.stringify(body)}`)
  return body.result
}

export function cred(venue: string, owner: string) {
  return { venue, owner, accountIndex: null, credentialRef: null, secret: null }
}

/** The owner's position size on `market` at the engine ('0' when none). */
export async function positions(
  sim: string,
  venue: string,
  owner: string,
  market: string,
): Promise<string> {
  const rows = (await rpc(sim, venue, 'positions', [cred(venue, owner)])) as {
    market: string
    size: string
  }[]
  return rows.find((p) => p.market === market)?.size ?? '0'
}

export async function venueOrder(sim: string, owner: string, cloid: string) {
  return rpc(sim, 'hl', 'order', [cred('hl', owner), 'ETH', cloid])
}
