import * as v from 'valibot'

/** Query of routes that take no query parameters: any parameter fails. */
export const EmptyQuery = v.strictObject({})
export type EmptyQuery = v.InferOutput<typeof EmptyQuery>
