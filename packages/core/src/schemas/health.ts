import * as v from 'valibot'

/** `GET /health`: the service itself answers. */
export const Health = v.object({ ok: v.literal(true) })
export type Health = v.InferOutput<typeof Health>
