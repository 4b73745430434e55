// The database schema. `npm run db:generate` turns changes here into SQL under migrations/.
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { sql } from "drizzle-orm";

export const states = sqliteTable("states", {
  id: integer("id").primaryKey(),
  code: text("code").notNull(),
  name: text("name").notNull(),
});

export const cities = sqliteTable(
  "cities",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    code: text("code").notNull(),
    stateId: integer("state_id")
      .notNull()
      .references(() => states.id),
  },
  (t) => [index("cities_state_idx").on(t.stateId)],
);

export const areas = sqliteTable(
  "areas",
  {
    id: integer("id").primaryKey(),
    name: text("name").notNull(),
    areaCode: text("area_code").notNull().default(""),
    cityId: integer("city_id")
      .notNull()
      .references(() => cities.id),
  },
  (t) => [index("areas_city_idx").on(t.cityId)],
);

export const postalCodes = sqliteTable(
  "postal_codes",
  {
    id: integer("id").primaryKey(),
    code: text("code").notNull(),
  },
  // Not unique: the data may carry one pincode under several ids, and the lookup serves all of them.
  (t) => [index("postal_codes_code_idx").on(t.code)],
);

export const salesAgents = sqliteTable("sales_agents", {
  id: integer("id").primaryKey(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  mobileNumber: text("mobile_number").notNull(),
  email: text("email"),
  avatar: text("avatar"),
});

export const salesAgentPostalCodes = sqliteTable(
  "sales_agent_postal_codes",
  {
    salesAgentId: integer("sales_agent_id")
      .notNull()
      .references(() => salesAgents.id),
    postalCodeId: integer("postal_code_id")
      .notNull()
      .references(() => postalCodes.id),
  },
  (t) => [
    primaryKey({ columns: [t.salesAgentId, t.postalCodeId] }),
    index("sales_agent_postal_codes_postal_code_idx").on(t.postalCodeId, t.salesAgentId),
  ],
);

export const deliveryAgents = sqliteTable("delivery_agents", {
  id: integer("id").primaryKey(),
  firstName: text("first_name").notNull(),
  lastName: text("last_name").notNull(),
  phoneNumber: text("phone_number").notNull(),
});

export const products = sqliteTable("products", {
  id: integer("id").primaryKey(),
  sku: text("sku").notNull(),
  name: text("name").notNull(),
});

export const customers = sqliteTable(
  "customers",
  {
    id: integer("id").primaryKey(),
    contactPersonName: text("contact_person_name").notNull(),
    companyName: text("company_name").notNull(),
    displayName: text("display_name").notNull(),
    email: text("email"),
    // Kept exactly as given; phoneKey is its normalized form (src/platform/lib/phone.ts), the lookup key.
    contactpersonNumber: text("contactperson_number").notNull(),
    phoneKey: text("phone_key"),
    companyPhone: text("company_phone"),
    gstTreatment: text("gst_treatment").notNull(),
    gstin: text("gstin"),
    customerCode: text("customer_code"),
    status: text("status").notNull(),
    approval: text("approval").notNull(),
    salesagentId: integer("salesagent_id").references(() => salesAgents.id),
    // Who made the row: POST /customers/create ("api") or an import ("import"). An import never
    // overwrites an "api" customer with another shop's record (README, Importing data). Rows that
    // existed before this column cannot be told apart and count as imported.
    origin: text("origin", { enum: ["api", "import"] })
      .notNull()
      .default("import"),
  },
  // Unique so that two racing creates with one number cannot both succeed. The agent index serves
  // an agent-bound key's listing: its page and its total read that agent's customers only. The agent
  // and phone index serves an agent-bound key's GET /orders: another agent's customer is a miss in it,
  // as an unknown number is, and reads nothing (docs/specification.md section 6).
  (t) => [
    uniqueIndex("customers_phone_key_uq").on(t.phoneKey),
    index("customers_salesagent_idx").on(t.salesagentId, t.id),
    index("customers_salesagent_phone_idx").on(t.salesagentId, t.phoneKey),
  ],
);

export const customerAddresses = sqliteTable("customer_addresses", {
  customerId: integer("customer_id")
    .primaryKey()
    .references(() => customers.id),
  addressline1: text("addressline1").notNull(),
  addressline2: text("addressline2").notNull().default(""),
  areaId: integer("area_id")
    .notNull()
    .references(() => areas.id),
  postalcodeId: integer("postalcode_id")
    .notNull()
    .references(() => postalCodes.id),
});

export const orders = sqliteTable(
  "orders",
  {
    id: integer("id").primaryKey(),
    orderNo: text("order_no").notNull(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id),
    salesagentId: integer("salesagent_id").references(() => salesAgents.id),
    deliveryagentId: integer("deliveryagent_id").references(() => deliveryAgents.id),
    date: text("date").notNull(),
    itemTotalAmount: real("item_total_amount").notNull(),
    discountAmount: real("discount_amount").notNull(),
    returnTotalAmount: real("return_total_amount").notNull(),
    billableAmount: real("billable_amount").notNull(),
  },
  (t) => [
    uniqueIndex("orders_order_no_uq").on(t.orderNo),
    // Serves a customer's orders page (filter, date range and sort) from the index alone, and a first
    // sync's walk of each customer's orders (docs/specification.md section 8).
    index("orders_customer_date_idx").on(t.customerId, t.date, t.id),
  ],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    lineNo: integer("line_no").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id),
    quantity: integer("quantity").notNull(),
    price: real("price").notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.lineNo] })],
);

export const orderStatuses = sqliteTable(
  "order_statuses",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    // Position in the order's history as recorded; breaks ties between equal times.
    seq: integer("seq").notNull(),
    name: text("name").notNull(),
    at: text("at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.seq] }),
    // An order's last status (latest time, then the later recorded) is this index's last entry for
    // the order: one row read, instead of reading and sorting the order's whole history.
    index("order_statuses_order_at_idx").on(t.orderId, t.at, t.seq),
  ],
);

export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    invoiceNumber: text("invoice_number").notNull(),
    date: text("date").notNull(),
    dueDate: text("due_date").notNull(),
    totalAmount: real("total_amount").notNull(),
    discountAmount: real("discount_amount").notNull(),
    returnedAmount: real("returned_amount").notNull(),
    invoiceAmount: real("invoice_amount").notNull(),
    cgst: real("cgst").notNull(),
    sgst: real("sgst").notNull(),
    igst: real("igst").notNull(),
  },
  (t) => [
    uniqueIndex("invoices_invoice_number_uq").on(t.invoiceNumber),
    index("invoices_order_date_idx").on(t.orderId, t.date, t.id),
  ],
);

// Replays of POST /customers/create under an Idempotency-Key. The primary key makes a concurrent
// duplicate fail inside the same batch that writes the customer.
export const idempotencyKeys = sqliteTable("idempotency_keys", {
  key: text("key").primaryKey(),
  requestHash: text("request_hash").notNull(),
  status: integer("status").notNull(),
  body: text("body").notNull(),
  createdAt: integer("created_at").notNull(),
});

// Administrator sign-ins and enrollment code exchanges of the last 10 minutes, by bucket and client address
// (src/admin/admin.signin-throttle.ts): each attempt reserves a row (in flight) before its secret is compared;
// a success deletes its row, a failure keeps it (no longer in flight). Pruned as it is written: rows older than the window are
// deleted with each attempt.
export const adminSigninFailures = sqliteTable(
  "admin_signin_failures",
  {
    id: integer("id").primaryKey(),
    address: text("address").notNull(),
    /** Milliseconds since the epoch. */
    at: integer("at").notNull(),
    /** "signin" or "enroll": the two are counted apart (docs/specification.md section 9). */
    bucket: text("bucket", { enum: ["signin", "enroll"] })
      .notNull()
      .default("signin"),
    /**
     * 1 while the attempt's secret is being compared, 0 once it failed (rows from before the column are
     * failures). A reservation in flight counts against the limit, but only failures make a lock that an
     * isolate remembers (docs/specification.md section 2, "Only failures lock").
     */
    inFlight: integer("in_flight").notNull().default(0),
  },
  (t) => [
    index("admin_signin_failures_address_at_idx").on(t.address, t.at),
    index("admin_signin_failures_at_idx").on(t.at),
    index("admin_signin_failures_bucket_address_at_idx").on(t.bucket, t.address, t.at),
  ],
);

// The service's own random secrets (src/admin/admin.service-secret.ts), made on first use, never from the
// administrator token. Deleting the "admin-session" row ends every dashboard session (the foreign
// key of admin_sessions) and makes a new secret (docs/specification.md section 2).
export const serviceSecrets = sqliteTable("service_secrets", {
  name: text("name").primaryKey(),
  /** 32 random bytes, base64url. */
  secret: text("secret").notNull(),
  createdAt: text("created_at").notNull(),
});

// The administrator's dashboard sessions (src/admin/admin.session.ts), read at the primary on every use:
// signing out deletes the row, so a copy of the cookie stops working at once. Expired rows are pruned
// as sessions start and end.
export const adminSessions = sqliteTable(
  "admin_sessions",
  {
    /** SHA-256 of the session id that the cookie carries, base64url: the id itself is never stored. */
    idHash: text("id_hash").primaryKey(),
    /** The secret that the session's cookie and CSRF token are keyed with. */
    secretName: text("secret_name")
      .notNull()
      .references(() => serviceSecrets.name, { onDelete: "cascade" }),
    /** Milliseconds since the epoch. */
    createdAt: integer("created_at").notNull(),
    /** Milliseconds since the epoch. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("admin_sessions_expires_idx").on(t.expiresAt), index("admin_sessions_secret_idx").on(t.secretName)],
);

// API keys: the system of record for key records (src/keys/keys.store.ts). Authentication never reads it:
// it reads the copy in the KEYS KV namespace, written after a change here commits. Every change
// writes its key_audit row in the same D1 batch.
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** e.g. "sk_test_AbCd…": enough to recognize a key, useless to use it. */
    prefix: text("prefix").notNull(),
    /** SHA-256 of the secret, lower-case hex. The secret itself is never stored. */
    hash: text("hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at"),
    revokedAt: text("revoked_at"),
    /** The key this one replaced by rolling. */
    rolledFrom: text("rolled_from"),
    replacedBy: text("replaced_by"),
    /** Comma-separated, in the order read,write (src/keys/keys.scopes.ts). Rows from before scopes have both. */
    scopes: text("scopes").notNull().default("read,write"),
    /**
     * The sales agent whose book the key is bound to, or null. No foreign key: the store checks the
     * agent when the key is made, and an import that replaces agents must not fail on a key.
     */
    agentId: integer("agent_id"),
    /** The last request that passed authentication with the key, to the minute (written by src/keys/keys.usage.ts). */
    lastUsedAt: text("last_used_at"),
    /**
     * Bumped by every change that sets copy_pending, in the change's own batch: a writer clears the
     * mark only while the version is still the one whose record it wrote (src/keys/keys.records.ts).
     */
    version: integer("version").notNull().default(0),
    /**
     * 1 while the KV copy may differ from this record; 2 when it lacks only a rotation's "due", which
     * authentication reads from the due set. The 5-minute job rewrites both (src/scheduled.ts).
     */
    copyPending: integer("copy_pending").notNull().default(0),
    /**
     * App rotation (docs/specification.md section 9): null, "due", "rotated" or "rolled". A rotated key's
     * successor is replaced_by (and the successor's rolled_from is this key, so api_keys_rolled_from_uq
     * lets one successor commit).
     */
    rotationState: text("rotation_state", { enum: ["due", "rotated", "rolled"] }),
    rotationRequestedAt: text("rotation_requested_at"),
    rotatedAt: text("rotated_at"),
    /** The successor's first request, as the successor's isolate reported it (after its answer). */
    successorFirstUsedAt: text("successor_first_used_at"),
    /** Uses of this key more than 60 s after its successor's first use (added by the usage flush). */
    oldKeyUsesAfterSuccessor: integer("old_key_uses_after_successor").notNull().default(0),
    /**
     * The successor's secret, AES-GCM under a key derived (HKDF-SHA-256) from this key's secret, for the
     * retry of a lost rotate answer; erased when this key stops working.
     */
    successorSecretSealed: text("successor_secret_sealed"),
    /** 1 on a rotation's successor until its first use reaches the old key's record (and so its copy). */
    awaitsFirstUse: integer("awaits_first_use").notNull().default(0),
    /**
     * The root key of the lineage (docs/specification.md section 9): a new key's own id, copied to every key
     * made from it by rotation or roll. Stored, never found by walking rolled_from, whose rows retention deletes.
     */
    lineageId: text("lineage_id"),
  },
  (t) => [
    uniqueIndex("api_keys_hash_uq").on(t.hash),
    // A key is rolled at most once: of two rolls of one key at the same moment, only one can commit.
    uniqueIndex("api_keys_rolled_from_uq").on(t.rolledFrom),
    index("api_keys_created_idx").on(t.createdAt, t.id),
    // The job's scan reads only the marked keys, however many keys there are.
    index("api_keys_copy_pending_idx")
      .on(t.id)
      .where(sql`${t.copyPending} = 1`),
    // The fleet's due set (src/keys/keys.rotation.ts) is read from the due keys only.
    index("api_keys_rotation_due_idx")
      .on(t.id)
      .where(sql`${t.rotationState} = 'due'`),
    // Revoking a lineage reads only its keys.
    index("api_keys_lineage_idx").on(t.lineageId),
    // The dashboard's key list filtered by agent, mode or rotation state walks one of these newest first
    // and stops after a page (src/keys/keys.list-page.ts).
    index("api_keys_agent_created_idx").on(t.agentId, t.createdAt, t.id),
    index("api_keys_mode_created_idx").on(t.mode, t.createdAt, t.id),
    index("api_keys_rotation_created_idx").on(t.rotationState, t.createdAt, t.id),
    // The daily job finds the keys dead for 90 days (revoked, expired or replaced) on these.
    index("api_keys_revoked_idx").on(t.revokedAt),
    index("api_keys_expires_idx").on(t.expiresAt),
  ],
);

// The key audit log (docs/specification.md section 2): one row per key or enrollment code change, written
// in the same D1 batch as the change. Never a secret or a code. Kept 400 days (src/scheduled.ts).
export const keyAudit = sqliteTable(
  "key_audit",
  {
    id: integer("id").primaryKey(),
    at: text("at").notNull(),
    action: text("action", {
      enum: ["create", "roll", "revoke", "enroll-code", "enroll", "revoke-code", "rotation-requested", "rotate"],
    }).notNull(),
    /** For a roll or a rotate, the old key; null for an enrollment code's own entries. */
    keyId: text("key_id"),
    /** A roll's or a rotate's new key, else null. */
    newKeyId: text("new_key_id"),
    /** The enrollment code of enroll-code, enroll and revoke-code, else null. */
    codeId: text("code_id"),
    keyName: text("key_name").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    actor: text("actor", { enum: ["dashboard", "admin-api", "cli", "start", "key", "enrollment"] }).notNull(),
    /** The dashboard session's id, else null. */
    sessionId: text("session_id"),
  },
  (t) => [index("key_audit_at_idx").on(t.at)],
);

// Requests per key and hour (src/keys/keys.usage.ts): upserted by each isolate's usage flush, at most once
// per flush interval. `hour` is whole hours since the Unix epoch (UTC). Kept 30 days (src/scheduled.ts).
export const keyUsage = sqliteTable(
  "key_usage",
  {
    keyId: text("key_id").notNull(),
    hour: integer("hour").notNull(),
    requests: integer("requests").notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.hour] }), index("key_usage_hour_idx").on(t.hour)],
);

// How many rows some tables hold, kept by triggers on their inserts and deletes (the migration
// row_count_triggers), so that a listing's total is one row read instead of a count(*) that reads
// every row. `name` is the counted table's name, or for the key list's counts `api_keys.` and what is
// counted (the migration key_list_counts).
export const rowCounts = sqliteTable("row_counts", {
  name: text("name").primaryKey(),
  n: integer("n").notNull(),
});

// The dashboard's one-time form tokens (src/dashboard/dashboard.form-tokens.ts, docs/specification.md section 9,
// "The dashboard's forms"). A token is issued with each page that carries a form whose answer shows
// a new secret; its row has form "". Each form that it is sent with adds a row under the form's
// address: the primary key lets exactly one submission of a form per token through. Only the
// token's SHA-256 is kept. Pruned as tokens are issued.
export const formTokens = sqliteTable(
  "form_tokens",
  {
    /** SHA-256 of the token, lower-case hex. */
    tokenHash: text("token_hash").notNull(),
    /** "" for the issued token; else the address of the form that used it. */
    form: text("form").notNull(),
    /** The dashboard session that the token was issued to. */
    sessionId: text("session_id").notNull(),
    /** Milliseconds since the epoch: the token is refused from then on. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tokenHash, t.form] }), index("form_tokens_expires_idx").on(t.expiresAt)],
);

// Each customer's number of orders, kept by triggers on the orders' inserts, deletes and moves to
// another customer (migration 0010_order_and_agent_count_triggers): the orders listing's total without dates
// is one row read, however long the customer's history (docs/specification.md section 4). A
// customer without a row has no orders. No foreign key: the row outlives nothing it needs.
export const customerOrderCounts = sqliteTable("customer_order_counts", {
  customerId: integer("customer_id").primaryKey(),
  n: integer("n").notNull(),
});

// Each sales agent's number of customers, kept the same way from the customers' inserts, deletes
// and moves to another agent: an agent-bound key's customers total is one row read, and a page by
// offset past it reads nothing of the listing (docs/specification.md section 4).
export const agentCustomerCounts = sqliteTable("agent_customer_counts", {
  agentId: integer("agent_id").primaryKey(),
  n: integer("n").notNull(),
});

// The sync change log (docs/specification.md section 8): one entry per record per book, (re)written
// by triggers on the record tables and by the importer's lookup marking. A rewrite is INSERT OR
// REPLACE, so the entry gets a new AUTOINCREMENT seq: numbers are never reused and follow commit
// order, and a record changed many times keeps only its latest entry. changed_at (unix seconds)
// serves retention only, never ordering.
export const syncChanges = sqliteTable(
  "sync_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    /** The sales agent whose book the entry is in. */
    book: integer("book").notNull(),
    kind: text("kind", { enum: ["customer", "order"] }).notNull(),
    recordId: integer("record_id").notNull(),
    /** 1: the record left the book or was deleted (a tombstone). */
    deleted: integer("deleted").notNull().default(0),
    changedAt: integer("changed_at").notNull(),
  },
  (t) => [
    uniqueIndex("sync_changes_record_uq").on(t.book, t.kind, t.recordId),
    // Covering: a sync reads a book's entries after a seq from the index alone, one row an entry
    // (docs/specification.md section 8, "Cost").
    index("sync_changes_book_seq_idx").on(t.book, t.seq, t.kind, t.recordId, t.deleted),
    // The daily purge reads the old tombstones only, however many live entries the log holds.
    index("sync_changes_tombstone_age_idx")
      .on(t.changedAt)
      .where(sql`${t.deleted} = 1`),
  ],
);

// Each book's purge mark: the highest seq whose tombstones the daily job has purged (src/scheduled.ts).
export const syncBooks = sqliteTable("sync_books", {
  book: integer("book").primaryKey(),
  purgeMark: integer("purge_mark").notNull().default(0),
});

// One row, and only inside an import's final batch (its first statement writes it, its last deletes
// it): the highest seq committed before the batch. An entry above it was written by the batch itself
// and is not yet visible to any sync, so the log triggers leave it as it is instead of rewriting it
// for each of the record's lines, statuses and invoices (docs/specification.md section 8).
export const syncImportFloor = sqliteTable("sync_import_floor", {
  seq: integer("seq").primaryKey(),
});

// One-time enrollment codes (src/enroll/, docs/specification.md section 9): only the code's SHA-256 is
// kept. Exchanging it makes a key in the same D1 batch that marks the code used; for the 10-minute
// retry window the new secret is kept encrypted under a key derived from the code (AES-GCM), and erased
// at the first read after the window or by the daily job.
export const enrollmentCodes = sqliteTable(
  "enrollment_codes",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the code as normalized (upper case, no dashes), lower-case hex. */
    codeHash: text("code_hash").notNull(),
    agentId: integer("agent_id").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** As api_keys.scopes. */
    scopes: text("scopes").notNull(),
    /** The key's name; the agent's names when the code was made without one. */
    name: text("name").notNull(),
    /** The life of the key made, in seconds; null: no expiry. */
    keyExpiresIn: integer("key_expires_in"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
    revokedAt: text("revoked_at"),
    /** The key made by the exchange. */
    keyId: text("key_id"),
    /** The new key's secret, AES-GCM under HKDF-SHA-256(code, salt): base64url, null once erased. */
    secretSealed: text("secret_sealed"),
    secretSalt: text("secret_salt"),
    secretIv: text("secret_iv"),
  },
  (t) => [
    uniqueIndex("enrollment_codes_code_hash_uq").on(t.codeHash),
    uniqueIndex("enrollment_codes_key_id_uq").on(t.keyId),
    index("enrollment_codes_created_idx").on(t.createdAt, t.id),
    // The daily job finds the codes dead for 90 days on it (a code dies at the latest when it expires).
    index("enrollment_codes_expires_idx").on(t.expiresAt),
    // The daily job's scan reads only the codes still holding a sealed secret.
    index("enrollment_codes_sealed_idx")
      .on(t.usedAt)
      .where(sql`${t.secretSealed} IS NOT NULL`),
  ],
);

// Leases of jobs that must run one at a time against a database (docs/specification.md section 7): a
// row per job while one holds it. The holder renews it while it works; a lease not renewed for two
// minutes has lapsed (its holder died) and the next one takes it over. Times are the database's clock.
export const leases = sqliteTable("leases", {
  /** The job: "import". */
  name: text("name").primaryKey(),
  /** A random id of the holder, so that only it renews or ends the lease. */
  holder: text("holder").notNull(),
  /** ISO 8601 (UTC, seconds): when the holder took the lease. */
  startedAt: text("started_at").notNull(),
  /** Unix milliseconds of the last renewal. */
  renewedAt: integer("renewed_at").notNull(),
});
