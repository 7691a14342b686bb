import * as v from 'valibot'
import { MAX_SAFE_INTEGER } from './common.js'

const rebind = v.optional(v.boolean())

/** One venue to bind in a prepare request, chosen by `venue`. */
export const BindingTarget = v.variant('venue', [
  v.strictObject({
    venue: v.literal('hl'),
    signatureChainId: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(1),
        v.maxValue(MAX_SAFE_INTEGER),
        v.metadata({ default: 42161 }),
      ),
    ),
    rebind,
  }),
  v.strictObject({ venue: v.literal('aster'), rebind }),
  v.strictObject({
    venue: v.picklist(['lighter', 'lighter-mainnet']),
    accountIndex: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.maxValue(MAX_SAFE_INTEGER),
    ),
    rebind,
  }),
])
export type BindingTarget = v.InferOutput<typeof BindingTarget>
