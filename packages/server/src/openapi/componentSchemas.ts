import {
  AddressSchema,
  ApiKey,
  ApiKeyList,
  AppError,
  BindingError,
  BindingSignRequest,
  BindingTarget,
  CreateApiKeyBody,
  CreatedApiKey,
  CreatePerpOrderBody,
  CreateTaskBody,
  DateTimeSchema,
  DecimalStringSchema,
  EmptyBody,
  ErrorBody,
  Health,
  IdempotencyKeySchema,
  ListQuery,
  MarketSchema,
  OrderAck,
  PerpOrder,
  PerpOrderList,
  PerpOrderResolution,
  PerpOrderResponse,
  PrepareVenueBindingsBody,
  RequestLog,
  RequestLogList,
  ResizeTaskBody,
  ResolveAck,
  ResolvePerpOrderBody,
  RevokeApiKeyBody,
  SignatureSchema,
  SubmitVenueBindingsBody,
  Task,
  TaskAck,
  TaskHistory,
  TaskHistoryQuery,
  TaskList,
  TaskResponse,
  UuidSchema,
  VenueBindingBatch,
  VenueBindingList,
  VenueBindingResult,
  VenueSchema,
  WalletAuthorizationSchema,
  WalletHeaders,
} from '@dn/core'
import {
  type ConversionConfig,
  type JsonSchema,
  toJsonSchema,
  toJsonSchemaDefs,
} from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { OpenApiDocumentSchema } from './openApiDocumentSchema.js'

/**
 * Every schema published under `components.schemas`, in document order.
 * A schema object listed here is written as a `$ref` wherever it is used.
 */
const COMPONENT_SCHEMAS: Readonly<Record<string, v.GenericSchema>> = {
  Venue: VenueSchema,
  Uuid: UuidSchema,
  Address: AddressSchema,
  Signature: SignatureSchema,
  IdempotencyKey: IdempotencyKeySchema,
  DateTime: DateTimeSchema,
  DecimalString: DecimalStringSchema,
  Market: MarketSchema,
  WalletAuthorization: WalletAuthorizationSchema,
  WalletHeaders,
  ListQuery,
  EmptyBody,
  CreateTaskBody,
  ResizeTaskBody,
  CreatePerpOrderBody,
  ResolvePerpOrderBody,
  BindingTarget,
  PrepareVenueBindingsBody,
  SubmitVenueBindingsBody,
  CreateApiKeyBody,
  RevokeApiKeyBody,
  Task,
  TaskList,
  TaskResponse,
  TaskAck,
  TaskHistoryQuery,
  TaskHistory,
  PerpOrderResolution,
  PerpOrder,
  PerpOrderList,
  PerpOrderResponse,
  OrderAck,
  ResolveAck,
  RequestLog,
  RequestLogList,
  VenueBindingResult,
  BindingSignRequest,
  VenueBindingBatch,
  VenueBindingList,
  ApiKey,
  CreatedApiKey,
  ApiKeyList,
  Health,
  ErrorBody,
  BindingError,
  OpenApiDocument: OpenApiDocumentSchema,
}

/**
 * Custom checks (cross-field rules, distinct items, real dates) have no
 * JSON Schema keyword; schemas document them with `description` or extra
 * keywords via `v.metadata`. Anything else that does not convert throws.
 */
const DOCUMENTED_CHECKS = new Set([
  'check',
  'partial_check',
  'check_items',
  'raw_check',
])

const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  errorMode: 'throw',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  overrideAction: ({ valibotAction, jsonSchema }) =>
    DOCUMENTED_CHECKS.has(valibotAction.type) ? jsonSchema : undefined,
}

const NAMES = new Map<unknown, string>(
  Object.entries(COMPONENT_SCHEMAS).map(([name, schema]) => [schema, name]),
)

/**
 * JSON Schema (2020-12) of every component, cross-referenced by `$ref`.
 *
 * @returns A fresh object on every call, keys in document order.
 */
export function componentSchemas(
  extra: Components = {},
): Record<string, JsonSchema> {
  return toJsonSchemaDefs({ ...COMPONENT_SCHEMAS, ...extra }, CONVERSION)
}

/** Schemas a route adds under its own names. */
type Components = Readonly<Record<string, v.GenericSchema>>

/**
 * A `$ref` to a component schema.
 *
 * @throws {AppError} `openapi_unnamed_schema` when the schema is not in
 *   {@link COMPONENT_SCHEMAS} (a programming error the document test finds).
 */
export function schemaRef(
  schema: v.GenericSchema,
  extra: Components = {},
): { $ref: string } {
  const name =
    NAMES.get(schema) ??
    Object.entries(extra).find(([, known]) => known === schema)?.[0]
  if (name === undefined) {
    throw new AppError(
      'openapi_unnamed_schema',
      `schema of type "${schema.type}" is not a named component`,
    )
  }
  return { $ref: `#/components/schemas/${name}` }
}

/** A schema converted in place (for parameters), components as `$ref`s. */
export function inlineSchema(
  schema: v.GenericSchema,
  extra: Components = {},
): JsonSchema {
  const {
    $schema: _s,
    $defs: _d,
    ...rest
  } = toJsonSchema(schema, {
    ...CONVERSION,
    definitions: { ...COMPONENT_SCHEMAS, ...extra },
  })
  return rest
}
