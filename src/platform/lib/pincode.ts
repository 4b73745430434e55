/** An Indian PIN code: exactly six digits, the first not 0. */
export function isPincode(value: string): boolean {
  return /^[1-9]\d{5}$/.test(value);
}
