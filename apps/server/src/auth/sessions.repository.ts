/** Sessions: opaque random tokens, of which only a SHA-256 hash is stored. */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.ts';

export const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class SessionsRepository {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
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
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('token_hash', '=', hashToken(token)).execute();
  }

  async revokeAllOf(userId: number, now = Date.now()): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async purgeExpired(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('expires_at', '<', now - SESSION_TTL_MS)
      .execute();
  }
}
