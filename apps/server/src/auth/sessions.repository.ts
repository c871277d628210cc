/**
 * Sessions: opaque random tokens, of which only a SHA-256 hash is stored. Whatever ends sessions
 * (sign-out, a password change, disabling or deleting a user) tells the listeners at once, so
 * that live connections opened with them close (the MQTT broker).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { afterCommit } from '../db/request-transaction.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Which sessions ended: one token's (by its hash), or every session of a user. */
export type SessionEnd = { tokenHash: string } | { userId: number };

export class SessionsRepository {
  private readonly db: Db;
  private readonly listeners = new Set<(end: SessionEnd) => void>();
  constructor(db: Db) {
    this.db = db;
  }

  /** Calls `listener` whenever sessions end; answers a function that stops that. */
  onEnded(listener: (end: SessionEnd) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Tells the listeners that sessions ended (revoke and revokeAllOf do; a caller that ends them
   * otherwise, too), once the request's writes have committed.
   */
  ended(end: SessionEnd): void {
    afterCommit(() => {
      for (const listener of this.listeners) listener(end);
    });
  }

  async create(userId: number, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + SESSION_TTL_MS;
    await this.db
      .insertInto('sessions')
      .values({ token_hash: hashToken(token), user_id: userId, created_at: now, expires_at: expiresAt, revoked_at: null })
      .execute();
    return { token, expiresAt };
  }

  /** The user id of a live session, or undefined. */
  async find(token: string, now = Date.now()): Promise<{ userId: number; expiresAt: number } | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', hashToken(token))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row && { userId: row.user_id, expiresAt: row.expires_at };
  }

  async revoke(token: string, now = Date.now()): Promise<void> {
    const tokenHash = hashToken(token);
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', tokenHash).execute();
    this.ended({ tokenHash });
  }

  async revokeAllOf(userId: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    this.ended({ userId });
  }

  async purgeExpired(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<', now - SESSION_TTL_MS)
      .execute();
  }
}
