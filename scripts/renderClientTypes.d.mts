/** Renders the client's generated types from the OpenAPI document. */
export function renderClientTypes(
  doc: Record<string, unknown>,
  errorCodes: readonly string[],
): string
