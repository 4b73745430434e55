// The address failures are counted by: IPv6 by its /64, which one subscriber usually holds whole.

export const SHARED_BUCKET = "unknown";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

export function clientBucket(header: string | null | undefined): string {
  if (!header) return SHARED_BUCKET;
  const value = header.trim().toLowerCase();
  if (value.length > 45) return SHARED_BUCKET;
  return ipv4(value) ?? ipv6Prefix(value) ?? SHARED_BUCKET;
}

function ipv4(value: string): string | null {
  const m = IPV4.exec(value);
  if (!m) return null;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets.join(".") : null;
}

/** "2001:db8:1:2::/64" for any address of that /64; an IPv4-mapped address as its IPv4 address. */
function ipv6Prefix(value: string): string | null {
  const groups = ipv6Groups(value);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

function ipv6Groups(value: string): number[] | null {
  let text = value;
  const tail: string[] = [];
  const v4 = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const dotted = ipv4(v4[1]!);
    if (!dotted) return null;
    const [a, b, c, d] = dotted.split(".").map(Number) as [number, number, number, number];
    tail.push(((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
    text = text.slice(0, text.length - v4[1]!.length);
    if (text.endsWith(":") && !text.endsWith("::")) text = text.slice(0, -1);
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const split = (part: string | undefined) => (part ? part.split(":") : []);
  const head = split(halves[0]);
  const rest = [...split(halves[1]), ...tail];
  if (halves.length === 1) {
    head.push(...tail);
    rest.length = 0;
  }
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.map((g) => parseInt(g, 16));
}
