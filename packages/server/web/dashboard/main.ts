import { balancesTable, positionsTable } from './accountViews.js'
import {
  type Api,
  ApiRequestError,
  type BalanceAccount,
  createApi,
  type PerpOrder,
  type PositionAccount,
  type Task,
  type TaskHistory,
} from './api.js'
import { h } from './dom.js'
import { ago } from './format.js'
import { ordersTable, unknownOrders } from './orderViews.js'
import { ACTIVE, endedTable, taskCard } from './taskViews.js'

/** Where the key is kept: this tab only, gone when it closes. */
const KEY = 'dn.apiKey'
/** How often the lists are read again. */
const POLL_MS = 5_000
/** How often an active task's history is read again (it grows once a minute). */
const HISTORY_MS = 15_000

interface View {
  tasks: Task[]
  orders: PerpOrder[]
  unknown: PerpOrder[]
  positions: PositionAccount[]
  balances: BalanceAccount[]
}

const app = document.getElementById('app') as HTMLElement
const histories = new Map<string, { at: number; history: TaskHistory }>()
let timer: ReturnType<typeof setTimeout> | undefined
let ticker: ReturnType<typeof setInterval> | undefined
let updatedAt = 0
let generation = 0

function readKey(): string | null {
  try {
    return sessionStorage.getItem(KEY)
  } catch {
    return null
  }
}

function stop(): void {
  generation++
  clearTimeout(timer)
  clearInterval(ticker)
  histories.clear()
}

/** The key form, with a message above it (why it is shown again). */
function showKeyForm(message?: { text: string; error: boolean }): void {
  stop()
  const input = h('input', {
    id: 'api-key',
    type: 'password',
    name: 'apiKey',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'dn_<env>_<id>.<secret>',
    required: true,
  }) as HTMLInputElement
  const form = h(
    'form',
    {
      id: 'key-form',
      onsubmit: (e: Event) => {
        e.preventDefault()
        const key = input.value.trim()
        if (key === '') return
        try {
          sessionStorage.setItem(KEY, key)
        } catch {
          // storage refused (private mode): the key lives for this page only
        }
        start(key)
      },
    },
    h('label', { for: 'api-key' }, 'API key'),
    input,
    h('button', { type: 'submit' }, 'Open dashboard'),
    h(
      'p',
      { class: 'muted' },
      'Read-only. The key stays in this browser tab (sessionStorage, gone when the tab closes) and is sent only to this server, as its Bearer token.',
    ),
  )
  app.replaceChildren(
    message
      ? h(
          'p',
          {
            id: 'message',
            class: message.error ? 'error' : 'note',
            role: 'status',
          },
          message.text,
        )
      : '',
    form,
  )
  input.focus()
}

/** What a refused key means and what to do about it. */
function refusedKey(err: ApiRequestError): string {
  return `This API key was refused (HTTP ${err.status} ${err.code}: ${err.message}). Paste the whole key as \`dn keys create\` printed it (dn_<env>_<id>.<secret>), for this deployment and not revoked; \`dn keys list\` shows your keys, and \`dn keys create --venues … --max-size-usd … --save\` makes a new one.`
}

function start(key: string): void {
  stop()
  const api = createApi(key)
  const mine = generation
  const status = h('span', { id: 'updated', class: 'muted' }, 'loading…')
  const problem = h('p', { id: 'problem', class: 'error', hidden: true })
  const content = h('div', { id: 'content' })
  app.replaceChildren(
    h(
      'div',
      { class: 'bar' },
      status,
      h(
        'button',
        {
          id: 'forget-key',
          type: 'button',
          onclick: () => {
            try {
              sessionStorage.removeItem(KEY)
            } catch {
              // nothing stored
            }
            showKeyForm({
              text: 'Key forgotten: this tab no longer holds it.',
              error: false,
            })
          },
        },
        'Forget key',
      ),
    ),
    problem,
    content,
  )
  ticker = setInterval(() => {
    if (updatedAt > 0)
      status.textContent = `updated ${ago(updatedAt, Date.now())} ago`
  }, 1_000)

  const poll = async () => {
    try {
      const view = await load(api)
      if (mine !== generation) return
      updatedAt = Date.now()
      status.textContent = 'updated 0 s ago'
      problem.hidden = true
      content.replaceChildren(...render(view))
    } catch (err) {
      if (mine !== generation) return
      if (err instanceof ApiRequestError && err.status === 401) {
        try {
          sessionStorage.removeItem(KEY)
        } catch {
          // nothing stored
        }
        showKeyForm({ text: refusedKey(err), error: true })
        return
      }
      problem.hidden = false
      problem.textContent = `Could not refresh (${err instanceof ApiRequestError ? `${err.code}: ${err.message}` : String(err)}); ${updatedAt > 0 ? 'showing the last data read' : 'nothing read yet'}, retrying in ${POLL_MS / 1000} s.`
    }
    if (mine === generation) timer = setTimeout(poll, POLL_MS)
  }
  void poll()
}

async function load(api: Api): Promise<View> {
  const [tasks, orders, unknown, positions, balances] = await Promise.all([
    api.tasks(),
    api.orders(),
    api.unknownOrders(),
    api.positions(),
    api.balances(),
  ])
  const now = Date.now()
  // only active tasks are charted; an ended task's history stops growing
  const due = tasks.filter((t) => {
    const kept = histories.get(t.taskId)
    return ACTIVE.includes(t.status) && (!kept || now - kept.at >= HISTORY_MS)
  })
  // a task's history failing (a 429) leaves the last one shown
  await Promise.all(
    due.slice(0, 8).map(async (t) => {
      try {
        histories.set(t.taskId, {
          at: now,
          history: await api.history(t.taskId),
        })
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 401) throw err
      }
    }),
  )
  return { tasks, orders, unknown, positions, balances }
}

function render(v: View): Node[] {
  const active = v.tasks.filter((t) => ACTIVE.includes(t.status))
  const ended = v.tasks.filter((t) => !ACTIVE.includes(t.status))
  return [
    unknownOrders(v.unknown) ?? '',
    h(
      'section',
      { id: 'active-tasks' },
      h('h2', {}, `Active tasks (${active.length})`),
      active.length === 0
        ? h('p', { class: 'muted' }, 'No pending or running task.')
        : active.map((t) =>
            taskCard(t, histories.get(t.taskId)?.history, v.positions),
          ),
    ),
    h(
      'section',
      { id: 'ended-tasks' },
      h('h2', {}, 'Recent ended tasks'),
      endedTable(ended),
    ),
    h(
      'section',
      { id: 'orders' },
      h('h2', {}, 'Perpetual orders'),
      ordersTable(v.orders),
    ),
    h(
      'section',
      { id: 'accounts', class: 'split' },
      h('div', {}, h('h2', {}, 'Positions'), positionsTable(v.positions)),
      h('div', {}, h('h2', {}, 'Balances'), balancesTable(v.balances)),
    ),
  ].filter((n): n is HTMLElement => typeof n !== 'string')
}

const saved = readKey()
if (saved) start(saved)
else showKeyForm()
