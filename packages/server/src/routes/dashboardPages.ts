import { staticHandler } from '../http/staticHandler.js'
import {
  DASHBOARD_HTML,
  DASHBOARD_SCRIPT_PATH,
  DASHBOARD_STYLE_PATH,
  readDashboardStyle,
} from '../pages/dashboardPage.js'
import { SELF_ONLY_CSP } from '../pages/selfOnlyCsp.js'
import { webBundle } from '../pages/webBundle.js'
import { definePage } from './pageSpec.js'

const headers = {
  'content-security-policy': SELF_ONLY_CSP,
  'referrer-policy': 'no-referrer',
}

/** The read-only dashboard at `/`, its script and its stylesheet. */
export const DASHBOARD_PAGES = [
  definePage(
    {
      method: 'GET',
      path: '/',
      summary:
        'Read-only dashboard: tasks, orders, positions (API key in the tab)',
      contentType: 'text/html; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: () => Buffer.from(DASHBOARD_HTML),
        contentType: page.contentType,
        headers,
      }),
  ),
  definePage(
    {
      method: 'GET',
      path: DASHBOARD_SCRIPT_PATH,
      summary: "The dashboard's script (bundled from packages/server/web)",
      contentType: 'text/javascript; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: () => webBundle('dashboard'),
        contentType: page.contentType,
        headers,
      }),
  ),
  definePage(
    {
      method: 'GET',
      path: DASHBOARD_STYLE_PATH,
      summary: "The dashboard's stylesheet",
      contentType: 'text/css; charset=utf-8',
    },
    ({ page }) =>
      staticHandler({
        load: readDashboardStyle,
        contentType: page.contentType,
        headers,
      }),
  ),
]
