/** Lowercased and trimmed when it looks like an address (one @, a dot in the domain, no spaces, at most 254), else null. */
export function normaliseEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  if (email.length < 3 || email.length > 254) return null;
  return /^[^\s@]+@[^\s@]+\.[^\s@.]+$/.test(email) ? email : null;
}
