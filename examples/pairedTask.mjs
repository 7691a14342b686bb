// A bot's whole life against `dn up`: fund a wallet on the simulated venues,
// bind hl and aster by signature, create an API key, open a paired position
// (long hl BTC, short aster BTCUSDT), watch funding, close it.
//
//   npm start                      # in another terminal
//   node examples/pairedTask.mjs   # DN_PRIVATE_KEY=0x… to use your own key
import { createDnClient } from '@dn/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

const api = process.env.DN_URL ?? 'http://127.0.0.1:8080'
const sim = process.env.DN_SIM_URL ?? 'http://127.0.0.1:8081'
const wallet = privateKeyToAccount(
  process.env.DN_PRIVATE_KEY ?? generatePrivateKey(),
)
const say = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a)

say('wallet', wallet.address)
for (const venue of ['hl', 'aster']) {
  const res = await fetch(`${sim}/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      venue,
      owner: wallet.address,
      collateralUsd: 50_000,
    }),
  })
  say('funded', venue, await res.json())
}

const anon = createDnClient({ baseUrl: api })
const batch = await anon.bindVenues(
  wallet,
  [{ venue: 'hl' }, { venue: 'aster' }],
  {
    onProgress: (b) =>
      say(
        'binding',
        b.status,
        b.results.map((r) => `${r.venue}=${r.status}`).join(' '),
      ),
  },
)
if (batch.status !== 'bound') throw new Error(`binding ended ${batch.status}`)

const { apiKey } = await anon.createApiKey(wallet, {
  venues: ['hl', 'aster'],
  maxSizeUsd: 5_000,
  label: 'example',
})
const dn = createDnClient({ baseUrl: api, apiKey })
const { taskId } = await dn.createTask({
  longVenue: 'hl',
  shortVenue: 'aster',
  longMarket: 'BTC',
  shortMarket: 'BTCUSDT',
  sizeUsd: 2_000,
  autoClose: false,
})
const running = await dn.waitForTask(taskId, { onPoll: (s) => say('task', s) })
say('opened', {
  long: running.longSize,
  short: running.shortSize,
  longEntry: running.longEntry,
  shortEntry: running.shortEntry,
})
await dn.closeTask(taskId)
const closed = await dn.waitForTask(taskId, {
  until: ['closed', 'failed'],
  onPoll: (s) => say('task', s),
})
say('closed', {
  status: closed.status,
  closeReason: closed.closeReason,
  fundingUsd: closed.fundingUsd,
})
