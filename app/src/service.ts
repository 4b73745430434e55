// The app's one door to the typed client: everything of it that the app uses, imported here only, so
// that the client's published package replaces this path in one line.
export {
  createClient,
  EnrollmentError,
  exchangeEnrollmentCode,
  keyRotation,
  sync,
  SyncError,
  type ApiClient,
  type EnrolledKey,
  type RotatedKey,
  type SyncPosition,
  type SyncRecord,
  type SyncRecordType,
  type SyncStore,
} from "../../src/client.ts";
export { checkMobile } from "../../src/customers/create/create.mobile.ts";
export { gstinProblem } from "../../src/platform/lib/gstin.ts";
