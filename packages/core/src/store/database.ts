import type { ColumnType } from 'kysely'

/**
 * Epoch microseconds. SQLite hands back a number, PostgreSQL's BIGINT a
 * string; writes always pass a number (exact below 2^53, i.e. until 2255).
 */
export type MicrosColumn = ColumnType<number | string, number, number>
/** Normalized decimal string; NUMERIC in PostgreSQL, TEXT in SQLite. */
export type DecimalColumn = string
/** BOOLEAN in PostgreSQL, INTEGER 0/1 in SQLite. */
export type BoolColumn = ColumnType<
  boolean | number,
  boolean | number,
  boolean | number
>
/** JSON text. */
export type JsonColumn = string

export interface ApiKeysTable {
  id: string
  owner: string
  env: string
  venues: JsonColumn
  max_size_usd: DecimalColumn
  label: string | null
  secret_hash: string
  created_at: MicrosColumn
  revoked_at: MicrosColumn | null
}

export interface VenueBindingsTable {
  id: string
  owner: string
  venue: string
  status: string
  account_index: string | null
  credential_ref: string | null
  credential_ciphertext: string | null
  unusable_code: string | null
  created_at: MicrosColumn
  updated_at: MicrosColumn
}

interface LeaseColumns {
  lease_owner: string | null
  lease_expires_at: MicrosColumn | null
  fence: ColumnType<number, number | undefined, number>
  next_check_at: MicrosColumn | null
}

export interface TasksTable extends LeaseColumns {
  id: string
  owner: string
  api_key_id: string
  long_venue: string
  short_venue: string
  long_market: string
  short_market: string
  size_usd: DecimalColumn
  min_funding_apy: DecimalColumn
  auto_close: BoolColumn
  max_spread_bps: DecimalColumn | null
  status: string
  long_size: DecimalColumn | null
  short_size: DecimalColumn | null
  long_entry: DecimalColumn | null
  short_entry: DecimalColumn | null
  long_price: DecimalColumn | null
  short_price: DecimalColumn | null
  long_leverage: DecimalColumn | null
  short_leverage: DecimalColumn | null
  liq_protection_pct: DecimalColumn | null
  size_mismatch_pct: DecimalColumn | null
  funding_usd: DecimalColumn
  long_margin_mode: string | null
  short_margin_mode: string | null
  close_reason: string | null
  error: string | null
  close_requested_at: MicrosColumn | null
  resize_request: JsonColumn | null
  engine_state: JsonColumn | null
  created_at: MicrosColumn
  updated_at: MicrosColumn
}

export interface PerpOrdersTable extends LeaseColumns {
  id: string
  owner: string
  api_key_id: string
  venue: string
  market: string
  side: string
  order_type: string
  size_base: DecimalColumn
  requested_limit_price: DecimalColumn | null
  limit_price: DecimalColumn | null
  time_in_force: string
  slippage_bps: number
  reduce_only: BoolColumn
  status: string
  requested_base: DecimalColumn | null
  filled_base: DecimalColumn
  average_price: DecimalColumn | null
  client_order_id: string
  venue_order_id: string | null
  venue_status: string | null
  error: string | null
  cancel_requested_at: MicrosColumn | null
  submitted_at: MicrosColumn | null
  send_by: MicrosColumn | null
  observed_at: MicrosColumn | null
  expires_at: MicrosColumn
  created_at: MicrosColumn
  updated_at: MicrosColumn
  resolution: JsonColumn | null
}

/** Venue-binding batches; `venues` is the JSON array of venue entries. */
export interface BindingBatchesTable extends LeaseColumns {
  id: string
  owner: string
  nonce: string
  request_hash: string
  status: string
  expires_at: MicrosColumn
  venues: JsonColumn
  created_at: MicrosColumn
  updated_at: MicrosColumn
}

export interface IdempotencyKeysTable {
  scope: string
  key: string
  method: string
  path: string
  fingerprint: string
  status: number
  body: string
  created_at: MicrosColumn
}

export interface RequestLogsTable {
  id: string
  api_key_id: string
  family: string
  action: string
  method: string
  path: string
  task_id: string | null
  order_id: string | null
  http_status: number
  error_code: string | null
  replayed: BoolColumn
  created_at: MicrosColumn
}

/** One row per bucket; `hits` is a JSON array of hit times in epoch ms. */
export interface RateLimitsTable {
  bucket: string
  hits: JsonColumn
}

export interface VenueBudgetsTable {
  bucket: string
  /** JSON `[[atMs, weight], ...]` of reservations inside the window */
  entries: JsonColumn
}

export interface WalletNoncesTable {
  owner: string
  nonce: string
  action: string
  used_at: MicrosColumn
}

export interface WorkersTable {
  id: string
  started_at: MicrosColumn
  heartbeat_at: MicrosColumn
  fenced_at: MicrosColumn | null
  host: string | null
  pid: number | null
}

/** Facts of the deployment, by name (see SettingsRepo). */
export interface SettingsTable {
  name: string
  value: string
}

/** Named locks with expiry (see LockRepo). */
export interface LocksTable {
  name: string
  holder: string
  expires_at: MicrosColumn
}

/** Strictly increasing counters (see CounterRepo). */
export interface CountersTable {
  name: string
  value: MicrosColumn
}

/**
 * The latest read of each bound account (see AccountSnapshotRepo);
 * `account` is the Lighter account index, '' elsewhere.
 */
export interface AccountSnapshotsTable {
  owner: string
  venue: string
  account: string
  positions: JsonColumn
  read_at: MicrosColumn
  balance: JsonColumn | null
  balance_read_at: MicrosColumn | null
}

export interface TaskSamplesTable {
  task_id: string
  /** start of the sampling slot (epoch micros): one sample per task and slot */
  slot_at: MicrosColumn
  at: MicrosColumn
  funding_usd: DecimalColumn
  pnl_total_usd: DecimalColumn
  unrealized_usd: DecimalColumn
  fees_usd: DecimalColumn
  funding_apy: DecimalColumn | null
  long_price: DecimalColumn | null
  short_price: DecimalColumn | null
  long_liq_pct: DecimalColumn | null
  short_liq_pct: DecimalColumn | null
}

/** Every table of the store, as kysely sees it. One schema, both dialects. */
export interface Database {
  api_keys: ApiKeysTable
  venue_bindings: VenueBindingsTable
  tasks: TasksTable
  perp_orders: PerpOrdersTable
  binding_batches: BindingBatchesTable
  idempotency_keys: IdempotencyKeysTable
  request_logs: RequestLogsTable
  rate_limits: RateLimitsTable
  venue_budgets: VenueBudgetsTable
  wallet_nonces: WalletNoncesTable
  workers: WorkersTable
  locks: LocksTable
  counters: CountersTable
  settings: SettingsTable
  account_snapshots: AccountSnapshotsTable
  task_samples: TaskSamplesTable
}
