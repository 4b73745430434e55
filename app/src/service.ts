// The app's one door to the typed client package, used as any outside app uses it, and to the two rules
// it checks before queueing a shop, shared with the service (docs/specification.md section 10).
export {
  type Address,
  type ApiClient,
  type Change,
  createClient,
  type Customer,
  type EnrolledKey,
  EnrollmentError,
  exchangeEnrollmentCode,
  keyRotation,
  type Order,
  type RecordKind,
  type RecordOf,
  type StoredKey as RotatedKey,
  sync,
  SyncError,
  type SyncPosition,
  type SyncStore,
} from "@order-lookup/client";
export { checkMobile } from "../../src/customers/create/create.mobile.ts";
export { gstinProblem } from "../../src/platform/lib/gstin.ts";
