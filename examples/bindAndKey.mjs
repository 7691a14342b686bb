// From a wallet to a trading key: fund the wallet on the simulated venues,
// bind hl, aster and lighter by signature, and create an API key for a bot.
// The wallet's private key never leaves this process; the service gets only
// signatures that let its own agent keys trade (not withdraw).
//
//   npm start                      # in another terminal
//   node examples/bindAndKey.mjs   # DN_PRIVATE_KEY=0x… to use your own key
//
// Env: DN_URL (default http://127.0.0.1:8080), DN_SIM_URL (default
// http://127.0.0.1:8081), DN_PRIVATE_KEY (default: a new wallet).
// The last line of output is JSON ({wallet, venues, lighterAccountIndex,
// keyId, apiKey}) for scripts; the other examples take its apiKey as
// DN_API_KEY.
import { createDnClient } from '@dn/client'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

const api = process.env.DN_URL || 'http://127.0.0.1:8080'
const sim = process.env.DN_SIM_URL || 'http://127.0.0.1:8081'
const wallet = privateKeyToAccount(
  process.env.DN_PRIVATE_KEY || generatePrivateKey(),
)
const say = (...a) => console.log(new Date().toISOString().slice(11, 19), ...a)

say('wallet', wallet.address)

// 1. Play money. The faucet opens an account for the wallet on each simulated
//    venue; on Lighter an account is a number (its account index), which
//    binding needs, so keep what the faucet answers.
const accountIndex = {}
for (const venue of ['hl', 'aster', 'lighter']) {
  const res = await fetch(`${sim}/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      venue,
      owner: wallet.address,
      collateralUsd: 50_000,
    }),
  })
  if (!res.ok) throw new Error(`faucet ${venue}: ${await res.text()}`)
  const funded = await res.json()
  accountIndex[venue] = funded.accountIndex
  say('funded', venue, 'account', funded.accountIndex)
}

// 2. Bind. The client asks the service to prepare, signs every request it
//    returns with the wallet, submits them and waits until each venue
//    settled. A client without an API key can do this: the wallet signs.
const anon = createDnClient({ baseUrl: api })
const batch = await anon.bindVenues(
  wallet,
  [
    { venue: 'hl' },
    { venue: 'aster' },
    { venue: 'lighter', accountIndex: accountIndex.lighter },
  ],
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

// 3. The API key: signed by the wallet, limited to these venues and to
//    USD 10,000 per task or order. It is shown once; a bot saves it.
const venues = ['hl', 'aster', 'lighter']
const key = await anon.createApiKey(wallet, {
  venues,
  maxSizeUsd: 10_000,
  label: 'examples',
})
say('api key', key.apiKey, '(shown once: save it, e.g. DN_API_KEY)')

// The wallet (not the key) reads what it bound, by signature.
const bindings = await anon.listBindings(wallet)
say('bound', bindings.map((b) => `${b.venue}=${b.status}`).join(' '))

console.log(
  JSON.stringify({
    wallet: wallet.address,
    venues: bindings.filter((b) => b.status === 'bound').map((b) => b.venue),
    lighterAccountIndex: accountIndex.lighter,
    keyId: key.keyId,
    apiKey: key.apiKey,
  }),
)
