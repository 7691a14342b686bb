import * as v from 'valibot'

/**
 * Error body of key-authenticated and API key routes: `{error, code}` plus
 * optional extras such as `issues` (validation problems, or the venues
 * behind `venue_not_bound`).
 */
export const ErrorBody = v.looseObject({
  error: v.string(),
  code: v.string(),
  issues: v.optional(
    v.array(
      v.looseObject({
        path: v.optional(v.string()),
        message: v.optional(v.string()),
      }),
    ),
  ),
})
export type ErrorBody = v.InferOutput<typeof ErrorBody>
