import * as v from 'valibot'

/** Error body of the venue-binding routes: exactly `{code, error}`. */
export const BindingError = v.strictObject({
  code: v.string(),
  error: v.string(),
})
export type BindingError = v.InferOutput<typeof BindingError>
