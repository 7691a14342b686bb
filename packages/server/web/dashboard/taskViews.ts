import type { PositionAccount, Task, TaskHistory } from './api.js'
import { lineChart } from './chart.js'
import { type Child, h } from './dom.js'
import { dec, num, pct, spreadBps, time, tone, usd } from './format.js'

export const ACTIVE = ['pending', 'running', 'resizing', 'closing']

/** A leg's distance to liquidation from the account's position, percent. */
function liqDistance(
  positions: readonly PositionAccount[],
  venue: string,
  market: string,
): string | null {
  const p = positions
    .find((a) => a.venue === venue)
    ?.positions.find((x) => x.market === market)
  const mark = num(p?.markPrice)
  const liq = num(p?.liquidationPrice)
  if (mark === null || liq === null || mark === 0) return null
  return String((Math.abs(mark - liq) / mark) * 100)
}

function legRow(t: Task, leg: 'long' | 'short', liq: string | null): Child {
  const long = leg === 'long'
  const pnl = t.pnl[leg]
  return h(
    'tr',
    {},
    h('th', {}, leg),
    h('td', {}, long ? t.longVenue : t.shortVenue),
    h('td', {}, long ? t.longMarket : t.shortMarket),
    h('td', { class: 'n' }, dec(long ? t.longSize : t.shortSize)),
    h('td', { class: 'n' }, dec(pnl.entryPrice)),
    h('td', { class: 'n' }, dec(long ? t.longPrice : t.shortPrice)),
    h(
      'td',
      { class: 'n' },
      dec(long ? t.longLeverage : t.shortLeverage),
      '× ',
      (long ? t.longMarginMode : t.shortMarginMode) ?? '',
    ),
    h(
      'td',
      { class: `n ${liq !== null && Number(liq) < 10 ? 'warn' : ''}` },
      pct(liq),
    ),
    h('td', { class: `n ${tone(pnl.unrealizedUsd)}` }, usd(pnl.unrealizedUsd)),
    h('td', { class: `n ${tone(pnl.realizedUsd)}` }, usd(pnl.realizedUsd)),
  )
}

function rules(history: TaskHistory | undefined, t: Task): Child {
  if (!history) return h('p', { class: 'muted' }, 'Close rules: loading…')
  const r = history.rules
  const armed: string[] = []
  if (r.autoClose) {
    armed.push(
      `funding APY under ${pct(r.minFundingApy)}${r.fundingBelowSince ? ` (under since ${time(r.fundingBelowSince)})` : ''}`,
    )
  }
  if (r.liqProtectionPct !== null) {
    armed.push(`a leg within ${pct(r.liqProtectionPct)} of liquidation`)
  }
  if (r.sizeMismatchPct !== null) {
    armed.push(`legs apart by more than ${pct(r.sizeMismatchPct)}`)
  }
  armed.push('a leg liquidated')
  return h(
    'div',
    { class: 'rules' },
    h('strong', {}, 'Closes on: '),
    armed.join(' · '),
    r.maxSpreadBps !== null && t.status === 'pending'
      ? h('span', {}, ` · opens only within ${r.maxSpreadBps} bps spread`)
      : null,
  )
}

function charts(history: TaskHistory | undefined): Child {
  if (!history) return null
  const at = (iso: string) => Date.parse(iso)
  const series = (pick: (s: TaskHistory['samples'][number]) => string | null) =>
    history.samples.flatMap((x) => {
      const v = num(pick(x))
      return v === null ? [] : [{ t: at(x.at), v }]
    })
  return h(
    'div',
    { class: 'charts' },
    lineChart('Funding and PnL', 'USD', [
      {
        name: 'PnL total',
        tone: 'line-a',
        points: series((x) => x.pnlTotalUsd),
      },
      {
        name: 'funding accrued',
        tone: 'line-b',
        points: series((x) => x.fundingUsd),
      },
    ]),
    lineChart('Funding APY', '%', [
      { name: 'APY', tone: 'line-c', points: series((x) => x.fundingApy) },
    ]),
  )
}

/** One active task: legs, prices, spread, funding, PnL, rules, charts. */
export function taskCard(
  t: Task,
  history: TaskHistory | undefined,
  positions: readonly PositionAccount[],
): HTMLElement {
  const spread = spreadBps(t.longPrice, t.shortPrice)
  // from the account's latest read, else from the monitor's latest sample
  const last = history?.samples[history.samples.length - 1]
  const liq = (leg: 'long' | 'short') =>
    leg === 'long'
      ? (liqDistance(positions, t.longVenue, t.longMarket) ??
        last?.longLiqDistancePct ??
        null)
      : (liqDistance(positions, t.shortVenue, t.shortMarket) ??
        last?.shortLiqDistancePct ??
        null)
  return h(
    'article',
    { class: 'task card', 'data-task': t.taskId, 'data-status': t.status },
    h(
      'header',
      {},
      h('span', { class: `badge s-${t.status}` }, t.status),
      h(
        'h3',
        {},
        `long ${t.longVenue} ${t.longMarket} / short ${t.shortVenue} ${t.shortMarket}`,
      ),
      h('span', { class: 'muted' }, `${usd(t.sizeUsd)} a leg · ${t.taskId}`),
    ),
    t.pendingReason
      ? h('p', { class: 'pending' }, 'Waiting: ', t.pendingReason.message)
      : null,
    t.error ? h('p', { class: 'error-note' }, t.error) : null,
    t.closeRequestedAt
      ? h(
          'p',
          { class: 'muted' },
          `Close requested ${time(t.closeRequestedAt)}`,
        )
      : null,
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Funding APY now'),
      h('dd', { class: tone(t.fundingApyNow) }, pct(t.fundingApyNow)),
      h('dt', {}, 'Funding accrued'),
      h('dd', { class: tone(t.pnl.fundingUsd) }, usd(t.pnl.fundingUsd)),
      h('dt', {}, 'Spread'),
      h('dd', {}, spread === null ? '—' : `${spread.toFixed(1)} bps`),
      h('dt', {}, 'Fees'),
      h('dd', {}, usd(t.pnl.feesUsd)),
      h('dt', {}, 'PnL total'),
      h('dd', { class: `big ${tone(t.pnl.totalUsd)}` }, usd(t.pnl.totalUsd)),
    ),
    h(
      'table',
      { class: 'legs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            'leg',
            'venue',
            'market',
            'size',
            'entry',
            'mark',
            'leverage',
            'to liquidation',
            'unrealized',
            'realized',
          ].map((c) => h('th', {}, c)),
        ),
      ),
      h(
        'tbody',
        {},
        legRow(t, 'long', liq('long')),
        legRow(t, 'short', liq('short')),
      ),
    ),
    rules(history, t),
    charts(history),
  )
}

/** Tasks that have ended: how, when, and what they made. */
export function endedTable(tasks: readonly Task[]): HTMLElement {
  if (tasks.length === 0) return h('p', { class: 'muted' }, 'No ended tasks.')
  return h(
    'table',
    { class: 'ended' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          'status',
          'pair',
          'reason',
          'ended',
          'funding',
          'realized',
          'fees',
          'PnL total',
        ].map((c) => h('th', {}, c)),
      ),
    ),
    h(
      'tbody',
      {},
      ...tasks.map((t) =>
        h(
          'tr',
          { 'data-task': t.taskId, 'data-status': t.status },
          h('td', {}, h('span', { class: `badge s-${t.status}` }, t.status)),
          h(
            'td',
            {},
            `${t.longVenue} ${t.longMarket} / ${t.shortVenue} ${t.shortMarket}`,
          ),
          h('td', {}, t.closeReason ?? t.error ?? '—'),
          h('td', {}, time(t.updatedAt)),
          h(
            'td',
            { class: `n ${tone(t.pnl.fundingUsd)}` },
            usd(t.pnl.fundingUsd),
            // its close could not read the last funding (or fees) yet
            t.settling
              ? h(
                  'span',
                  {
                    class: 'muted settling',
                    title:
                      'still being read from the venues: funding and fees may change',
                  },
                  ' settling',
                )
              : null,
          ),
          h(
            'td',
            { class: `n ${tone(t.pnl.realizedUsd)}` },
            usd(t.pnl.realizedUsd),
          ),
          h('td', { class: 'n' }, usd(t.pnl.feesUsd)),
          h(
            'td',
            { class: `n pnl ${tone(t.pnl.totalUsd)}` },
            usd(t.pnl.totalUsd),
          ),
        ),
      ),
    ),
  )
}
