import * as v from 'valibot'
import { PositiveAmountSchema } from './common.js'

/**
 * `POST /v1/delta-neutral/tasks/{taskId}/resize`: total base-asset targets
 * (not deltas, not USD); at least one of the two is required.
 */
export const ResizeTaskBody = v.pipe(
  v.strictObject({
    longTargetBase: v.optional(PositiveAmountSchema),
    shortTargetBase: v.optional(PositiveAmountSchema),
    disableSizeMismatchAutoClose: v.optional(v.boolean()),
  }),
  v.partialCheck(
    [['longTargetBase'], ['shortTargetBase']],
    (input) =>
      input.longTargetBase !== undefined || input.shortTargetBase !== undefined,
    'at least one of longTargetBase and shortTargetBase is required',
  ),
  v.metadata({
    description: 'At least one of longTargetBase and shortTargetBase.',
    anyOf: [
      { required: ['longTargetBase'] },
      { required: ['shortTargetBase'] },
    ],
  }),
)
export type ResizeTaskBody = v.InferOutput<typeof ResizeTaskBody>
