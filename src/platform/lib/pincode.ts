export function isPincode(value: string): boolean {
  return /^[1-9]\d{5}$/.test(value);
}
