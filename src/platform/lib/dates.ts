// Dates of the API: "dd-mm-yyyy" as published, "yyyy-mm-dd" too; stored and served as yyyy-mm-dd.

const DMY = /^(\d{2})-(\d{2})-(\d{4})$/;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Null unless it is a day that exists. */
export function parseApiDate(value: string): string | null {
  let y: number, m: number, d: number;
  const dmy = DMY.exec(value);
  const ymd = YMD.exec(value);
  if (dmy) [d, m, y] = [Number(dmy[1]), Number(dmy[2]), Number(dmy[3])];
  else if (ymd) [y, m, d] = [Number(ymd[1]), Number(ymd[2]), Number(ymd[3])];
  else return null;
  if (!isRealDate(y, m, d)) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

export function isIsoDate(value: string): boolean {
  const ymd = YMD.exec(value);
  return ymd !== null && isRealDate(Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= daysInMonth(y, m);
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(m) ? 30 : 31;
}
