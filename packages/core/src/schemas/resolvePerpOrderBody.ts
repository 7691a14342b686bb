import * as v from 'valibot'

/**
 * `POST /v1/perp/orders/{orderId}/resolve`: an operator's attestation of
 * the final state of an `unknown` order. `averagePrice` is null exactly
 * when `filledBase` is 0.
 */
export const ResolvePerpOrderBody = v.pipe(
  v.strictObject({
    status: v.picklist(['filled', 'cancelled', 'expired', 'rejected']),
    filledBase: v.pipe(
      v.number(),
      v.minValue(0),
      v.description(
        'total verified filled quantity, including earlier recorded fills',
      ),
    ),
    averagePrice: v.nullable(v.pipe(v.number(), v.gtValue(0))),
    evidence: v.pipe(v.string(), v.minLength(10), v.maxLength(2000)),
    confirmNoOpenOrder: v.literal(true),
    confirmWorkersStopped: v.literal(true),
  }),
  v.forward(
    v.partialCheck(
      [['filledBase'], ['averagePrice']],
      (input) => input.filledBase !== 0 || input.averagePrice === null,
      'must be null when filledBase is 0',
    ),
    ['averagePrice'],
  ),
  v.forward(
    v.partialCheck(
      [['filledBase'], ['averagePrice']],
      (input) => input.filledBase === 0 || input.averagePrice !== null,
      'is required (> 0) when filledBase is above 0',
    ),
    ['averagePrice'],
  ),
  v.metadata({
    description: 'averagePrice is null exactly when filledBase is 0.',
    if: { properties: { filledBase: { const: 0 } }, required: ['filledBase'] },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema keyword
    then: { properties: { averagePrice: { type: 'null' } } },
    else: { properties: { averagePrice: { type: 'number' } } },
  }),
)
export type ResolvePerpOrderBody = v.InferOutput<typeof ResolvePerpOrderBody>
