// The service's one body limit (section 3): the API, the admin API and the dashboard's forms.
import { bodyLimit } from "hono/body-limit";
import { errors } from "../errors.ts";

export const MAX_BODY_BYTES = 16 * 1024;

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw errors.payloadTooLarge(MAX_BODY_BYTES);
  },
});
