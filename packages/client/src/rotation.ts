// The rotation helper: carries out the key rotation that the service asks for (docs/specification.md section 9,
// "Rotation that the app performs"), the successor stored by the app before it is ever used.
import type { ErrorEnvelope, RotatedKey } from "./api.gen.js";
import { type FetchLike, routes } from "./client.js";

/** Times the app's store is tried at once for one successor; after that, again at the next answer. */
const STORE_ATTEMPTS = 3;
/** Milliseconds between those tries. */
const STORE_RETRY_MS = [100, 400];

/** What the app keeps of a rotated key: its secret above all, stored before it is used. */
export type StoredKey = Pick<RotatedKey, "id" | "secret" | "replaces">;

/**
 * A rotation that did not complete: `stage` "rotate" (POST /keys/rotate failed or was refused: `status`, and the
 * service's `error` when it answered one) or "store" (the app's store failed: `cause`). The old key still works
 * and still says `Key-Rotation: due`, so the helper tries again at the next answer.
 */
export class KeyRotationError extends Error {
  override readonly name = "KeyRotationError";
  constructor(
    readonly stage: "rotate" | "store",
    message: string,
    readonly status: number | null = null,
    readonly error: ErrorEnvelope["error"] | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface KeyRotationOptions {
  /** The key the app has now. */
  secret: string;
  /**
   * Stores the successor where the app keeps its secret; the helper uses it only once this resolves. It may
   * reject (storage full, a transaction aborted): it is tried again, then at the next answer, and reported.
   */
  store(key: StoredKey): Promise<void>;
  /**
   * Told of every rotation that did not complete. Without it, each is written to `console.error`; it is
   * never dropped silently. `lastError` says the same.
   */
  onError?(error: KeyRotationError): void;
  fetch?: FetchLike;
}

export interface KeyRotation {
  /** Give it to createClient (or call it): it sends the current key and rotates it once when told to. */
  fetch: FetchLike;
  /** The key in use now. */
  readonly secret: string;
  /** The last rotation that did not complete, until one completes (then null). */
  readonly lastError: KeyRotationError | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Carries out the rotation that the service asks for: an answer with `Key-Rotation: due` makes it call
 * POST /keys/rotate once with the key in use, hand the successor to `store` and send the successor from then
 * on. A lost rotate answer is asked again at the next such answer (the old key still works and still says
 * due) and gets the same successor; a successor whose store failed is held in memory and stored at the next
 * answer, with no new request. The answer that said due is returned once the rotation completed or failed.
 */
export function keyRotation(baseUrl: string | URL, options: KeyRotationOptions): KeyRotation {
  const send: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const api = routes(baseUrl, { fetch: send });
  let secret = options.secret;
  /** A successor received but not yet stored. */
  let unstored: StoredKey | null = null;
  let lastError: KeyRotationError | null = null;
  let rotating: Promise<void> | null = null;

  async function successorOf(old: string): Promise<StoredKey> {
    let res;
    try {
      res = await api.keys.rotate.$post({}, { headers: { Authorization: `Bearer ${old}` } });
    } catch (cause) {
      throw new KeyRotationError("rotate", "POST /keys/rotate got no answer", null, null, { cause });
    }
    if (res.status === 200 || res.status === 201) {
      const { data } = await res.json();
      return { id: data.id, secret: data.secret, replaces: data.replaces };
    }
    const error = ((await res.json().catch(() => null)) as Partial<ErrorEnvelope> | null)?.error ?? null;
    throw new KeyRotationError(
      "rotate",
      error?.description ?? `POST /keys/rotate answered ${res.status}`,
      res.status,
      error,
    );
  }

  async function store(key: StoredKey): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await options.store(key);
      } catch (cause) {
        if (attempt >= STORE_ATTEMPTS)
          throw new KeyRotationError("store", `The app's store failed to keep key ${key.id}`, null, null, { cause });
        await sleep(STORE_RETRY_MS[attempt - 1] ?? 0);
      }
    }
  }

  async function rotate(old: string): Promise<void> {
    try {
      unstored ??= await successorOf(old);
      await store(unstored);
      if (secret === old) secret = unstored.secret;
      unstored = null;
      lastError = null;
    } catch (err) {
      lastError =
        err instanceof KeyRotationError
          ? err
          : new KeyRotationError("rotate", "The rotation failed", null, null, { cause: err });
      if (options.onError) options.onError(lastError);
      else console.error(lastError);
    }
  }

  return {
    get secret() {
      return secret;
    },
    get lastError() {
      return lastError;
    },
    async fetch(input, init) {
      const used = secret;
      const request = new Request(input, init);
      request.headers.set("Authorization", `Bearer ${used}`);
      const res = await send(request);
      if (res.headers.get("Key-Rotation") === "due" && used === secret) {
        // One rotation at a time: answers arriving meanwhile wait for it.
        rotating ??= rotate(used).finally(() => (rotating = null));
        await rotating;
      }
      return res;
    },
  };
}
