/**
 * Secrets in forms (SIM provider accounts, notification channels): sealed when a new value is
 * sent, kept when the field comes back empty or as the mask, and shown only masked (with the
 * last 4 characters of a long one, so an administrator can tell which is stored).
 */
import { SECRET_MASK } from '@sluice/shared/sim.schema';
import type { SecretBox } from './secret-box.ts';

export function maskedSecret(secrets: SecretBox, sealed: unknown): string {
  if (typeof sealed !== 'string' || sealed === '') return '';
  try {
    const plain = secrets.open(sealed);
    return plain.length >= 12 ? `${SECRET_MASK}${plain.slice(-4)}` : SECRET_MASK;
  } catch {
    return SECRET_MASK;
  }
}

/** The sealed value to store, or undefined to keep the stored one. */
export function sealUnlessKept(secrets: SecretBox, value: unknown): string | undefined {
  return typeof value !== 'string' || value === '' || value.startsWith(SECRET_MASK) ? undefined : secrets.seal(value);
}
