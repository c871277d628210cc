/**
 * A device's MQTT credential: its serial number and a random secret. The secret is shown once,
 * when the device is added (or its credential reset); only its SHA-256 is kept. A slow hash
 * buys nothing for 256 random bits, and the broker checks many connections.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { DevicesRepository } from './devices.repository.ts';

export function newDeviceSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashDeviceSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** 'SL' and 10 random digits. */
export function newDeviceSn(): string {
  return `SL${String(randomInt(0, 10_000_000_000)).padStart(10, '0')}`;
}

/** Whether the secret is the credential of a live device (not in the recycle bin); for the broker. */
export async function verifyDeviceSecret(db: Db, sn: string, secret: string): Promise<boolean> {
  const stored = await new DevicesRepository(db).liveSecretHash(sn);
  return stored !== undefined && secretMatches(stored, secret);
}

/** Whether a secret is the one whose SHA-256 (hex) is stored, compared in constant time. */
export function secretMatches(storedHash: string, secret: string): boolean {
  const expected = Buffer.from(storedHash, 'hex');
  const given = Buffer.from(hashDeviceSecret(secret), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
