// The API sends OWASP's REST set only (HSTS, nosniff, framing refused); page-only headers go on the HTML pages. Every
// byte goes to phones on every answer: a cached GET /area's headers are 505 bytes, not 701.
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
