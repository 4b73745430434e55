// The API sends OWASP's REST set only, page headers go on HTML pages: a cached GET /area's headers are 505 bytes.
import { secureHeaders } from "hono/secure-headers";

export const apiSecureHeaders = secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  xFrameOptions: "DENY",
  referrerPolicy: false,
  crossOriginResourcePolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xXssProtection: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  // The HTML pages set their own (a CSP that lets their scripts run, for one): theirs are kept.
  overwrite: false,
});

export const pageSecureHeaders = secureHeaders();
