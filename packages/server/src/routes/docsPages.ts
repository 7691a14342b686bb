import { staticHandler } from '../http/staticHandler.js'
import {
  API_DOCS_CSP,
  API_DOCS_HTML,
  REDOC_ASSET_PATH,
} from '../pages/apiDocsPage.js'
import { readRedocBundle } from '../pages/redocBundle.js'
import { definePage } from './pageSpec.js'

const headers = { 'content-security-policy': API_DOCS_CSP }

/** The API reference: a page rendering `/openapi.json`, and its renderer. */
export const DOCS_PAGES = [
  definePage(
    {
      method: 'GET',
      path: '/docs',
      summary: 'API reference rendered from /openapi.json (Redoc)',
      contentType: 'text/html; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: () => Buffer.from(API_DOCS_HTML),
        contentType: page.contentType,
        headers,
      }),
  ),
  definePage(
    {
      method: 'GET',
      path: REDOC_ASSET_PATH,
      summary: "Redoc's standalone browser bundle (from node_modules)",
      contentType: 'text/javascript; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: readRedocBundle,
        contentType: page.contentType,
        headers,
      }),
  ),
]
