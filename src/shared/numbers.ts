// Owns how counts are printed for people: digits grouped by commas (12,345).

/**
 * An integer with its digits grouped by commas, as `toLocaleString('en-US')` prints it, without loading
 * ICU (which costs a short-lived command ~10 ms).
 */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}
