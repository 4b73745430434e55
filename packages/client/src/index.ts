// @order-lookup/client: the typed client of the order and customer lookup API (usage and the store's rules in
// the service's docs/api.md, "The typed client").
export type {
  Address,
  ApiSchema,
  Change,
  Customer,
  CustomerChange,
  EnrolledKey,
  ErrorCode,
  ErrorEnvelope,
  Order,
  OrderChange,
  RotatedKey,
} from "./api.gen.js";
export { type ApiApp, type ApiClient, type ClientOptions, type FetchLike, createClient } from "./client.js";
export { EnrollmentError, exchangeEnrollmentCode } from "./enroll.js";
export {
  type KeyRotation,
  KeyRotationError,
  type KeyRotationOptions,
  keyRotation,
  type StoredKey,
} from "./rotation.js";
export {
  applyChange,
  MemorySyncStore,
  type RecordKind,
  type RecordOf,
  sync,
  SyncError,
  type SyncOptions,
  type SyncPosition,
  type SyncResult,
  type SyncStore,
} from "./sync.js";
