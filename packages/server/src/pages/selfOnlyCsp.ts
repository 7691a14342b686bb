/**
 * The content security policy of the pages built from `packages/server/web/`
 * (the dashboard, the binding page): their own script, stylesheet and API
 * on this server, nothing inline, nothing from another origin (`img-src
 * data:` is the empty icon). A key or signature they hold can only ever be
 * sent here.
 */
export const SELF_ONLY_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')
