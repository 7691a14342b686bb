import { staticHandler } from '../http/staticHandler.js'
import {
  BIND_CSS,
  BIND_SCRIPT_PATH,
  BIND_STYLE_PATH,
  bindPageHtml,
} from '../pages/bindPage.js'
import { SELF_ONLY_CSP } from '../pages/selfOnlyCsp.js'
import { webBundle } from '../pages/webBundle.js'
import { definePage } from './pageSpec.js'

const headers = { 'content-security-policy': SELF_ONLY_CSP }

/**
 * The browser binding page: a wallet in the browser binds venues and
 * creates an API key through the public binding and key routes.
 */
export const BIND_PAGES = [
  definePage(
    {
      method: 'GET',
      path: '/bind',
      summary: 'Bind venue accounts from a browser wallet (EIP-1193)',
      contentType: 'text/html; charset=utf-8',
    },
    ({ deps, page }) =>
      staticHandler({
        load: () => Buffer.from(bindPageHtml(deps.authDomain)),
        contentType: page.contentType,
        headers,
      }),
  ),
  definePage(
    {
      method: 'GET',
      path: BIND_SCRIPT_PATH,
      summary: "The binding page's script (bundled from web/bind on first use)",
      contentType: 'text/javascript; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: () => webBundle('bind'),
        contentType: page.contentType,
        headers,
      }),
  ),
  definePage(
    {
      method: 'GET',
      path: BIND_STYLE_PATH,
      summary: "The binding page's styles",
      contentType: 'text/css; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: () => Buffer.from(BIND_CSS),
        contentType: page.contentType,
        headers,
      }),
  ),
]
