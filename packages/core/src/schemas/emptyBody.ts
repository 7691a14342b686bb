import * as v from 'valibot'

/** The `{}` body of cancel and close commands: no properties allowed. */
export const EmptyBody = v.strictObject({})
export type EmptyBody = v.InferOutput<typeof EmptyBody>
