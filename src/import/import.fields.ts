// Typed reads of a dataset record's fields (import.records.ts), each failure naming the field's full path.
import { isIsoDate } from "../platform/lib/dates.ts";

export type Fail = (field: string, problem: string) => never;

/** Typed reads of one object's fields; every failure names the field's full path. */
export class Fields {
  constructor(
    private readonly value: Record<string, unknown>,
    private readonly prefix: string,
    private readonly fail: Fail,
  ) {}

  path(name: string): string {
    return this.prefix + name;
  }

  reject(name: string, problem: string): never {
    return this.fail(this.path(name), problem);
  }

  private required(name: string): unknown {
    const v = this.value[name];
    if (v === undefined) this.fail(this.path(name), "missing");
    return v;
  }

  int(name: string): number {
    const v = this.required(name);
    if (typeof v !== "number" || !Number.isSafeInteger(v)) this.fail(this.path(name), "must be an integer");
    return v as number;
  }

  /** A field that may be null may also be left out. */
  nullableInt(name: string): number | null {
    const v = this.value[name];
    return v === undefined || v === null ? null : this.int(name);
  }

  num(name: string): number {
    const v = this.required(name);
    if (typeof v !== "number" || !Number.isFinite(v)) this.fail(this.path(name), "must be a number");
    return v as number;
  }

  str(name: string): string {
    const v = this.required(name);
    if (typeof v !== "string") this.fail(this.path(name), "must be a string");
    return v as string;
  }

  nullableStr(name: string): string | null {
    const v = this.value[name];
    return v === undefined || v === null ? null : this.str(name);
  }

  /** A string whose column has a default: left out means the default. */
  strOr(name: string, fallback: string): string {
    return this.value[name] === undefined ? fallback : this.str(name);
  }

  date(name: string): string {
    const v = this.str(name);
    if (!isIsoDate(v)) this.fail(this.path(name), `must be a date yyyy-mm-dd, got ${JSON.stringify(v)}`);
    return v;
  }

  dateTime(name: string): string {
    const v = this.str(name);
    const iso = toUtcIso(v);
    if (iso === null)
      this.fail(this.path(name), `must be a date-time such as 2026-03-14T09:30:00Z, got ${JSON.stringify(v)}`);
    return iso as string;
  }

  oneOf(name: string, allowed: ReadonlySet<string>): string {
    const v = this.str(name);
    if (!allowed.has(v))
      this.fail(this.path(name), `must be one of ${[...allowed].join(", ")}; got ${JSON.stringify(v)}`);
    return v;
  }

  array(name: string, optional = false): unknown[] {
    const v = this.value[name];
    if (v === undefined && optional) return [];
    if (!Array.isArray(this.required(name))) this.fail(this.path(name), "must be an array");
    return v as unknown[];
  }

  ints(name: string): number[] {
    return this.array(name).map((v, i) => {
      if (typeof v !== "number" || !Number.isSafeInteger(v))
        this.fail(this.path(`${name}[${i}]`), "must be an integer");
      return v as number;
    });
  }

  /** An array of objects; `optional` means it may be left out (as an empty array). */
  objects(name: string, optional = false): Fields[] {
    return this.array(name, optional).map((_, i) => this.object(`${name}[${i}]`, this.value[name] as unknown[], i));
  }

  /** Left out, null, or `[]` (how the API shows "none") mean none. */
  nullableObject(name: string): Fields | null {
    const v = this.value[name];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return null;
    return this.object(name, this.value, name);
  }

  private object(path: string, container: unknown[] | Record<string, unknown>, key: number | string): Fields {
    const v = (container as Record<string | number, unknown>)[key];
    if (typeof v !== "object" || v === null || Array.isArray(v)) this.fail(this.path(path), "must be an object");
    return new Fields(v as Record<string, unknown>, `${this.path(path)}.`, this.fail);
  }
}

// yyyy-mm-dd, then optionally a time hh:mm[:ss[.fff]] after "T" or a space, then optionally Z or ±hh[:]mm.
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/** A date-time as UTC ISO 8601 text (which sorts by time), or null; without an offset it is taken as UTC. */
export function toUtcIso(value: string): string | null {
  // The common form, already UTC to the second: no Date round trip (hundreds of thousands of these).
  if (value.length === 20 && UTC_SECONDS.test(value) && isIsoDate(value.slice(0, 10))) {
    return `${value.slice(0, 19)}.000Z`;
  }
  const m = DATE_TIME.exec(value);
  if (!m || !isIsoDate(m[1]!)) return null;
  const [hh, mm, ss] = [m[2] ?? "00", m[3] ?? "00", m[4] ?? "00"];
  if (Number(hh) > 23 || Number(mm) > 59 || Number(ss) > 59) return null;
  const fraction = m[5] ? m[5].slice(0, 4) : "";
  let zone = (m[6] ?? "Z").toUpperCase();
  if (zone !== "Z" && !zone.includes(":")) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${m[1]}T${hh}:${mm}:${ss}${fraction}${zone}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
