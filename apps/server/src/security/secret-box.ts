/**
 * Secrets at rest (SIM provider passwords and app secrets): sealed with AES-256-GCM under the
 * configured SECRET_KEY. Without one, a key is generated once and kept in DATA_DIR/secret.key
 * (readable by its owner only), so a single machine works out of the box; several server
 * instances must share SECRET_KEY.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { secretKeyBytes, type Config } from '../config.ts';

const VERSION = 'v1';

export class SecretBox {
  private readonly config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>;
  private key: Buffer | undefined;

  constructor(config: Pick<Config, 'SECRET_KEY' | 'DATA_DIR'>) {
    this.config = config;
  }

  /** The key: SECRET_KEY, else the one kept under DATA_DIR (created on first use). */
  private keyBytes(): Buffer {
    if (this.key) return this.key;
    if (this.config.SECRET_KEY) {
      this.key = secretKeyBytes(this.config.SECRET_KEY);
    } else {
      const file = path.join(this.config.DATA_DIR, 'secret.key');
      try {
        this.key = secretKeyBytes(readFileSync(file, 'utf8'));
      } catch {
        mkdirSync(this.config.DATA_DIR, { recursive: true });
        try {
          writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
        } catch {
          // Another process wrote it first; read theirs.
        }
        this.key = secretKeyBytes(readFileSync(file, 'utf8'));
      }
    }
    if (!this.key) throw new Error('The secret key is not 32 bytes');
    return this.key;
  }

  /** 'v1:' and base64 of IV (12 bytes), tag (16 bytes) and ciphertext. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keyBytes(), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** The plain text of a sealed value; throws when it was sealed under another key or altered. */
  open(sealed: string): string {
    if (!sealed.startsWith(`${VERSION}:`)) throw new Error('Not a sealed secret');
    const bytes = Buffer.from(sealed.slice(VERSION.length + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.keyBytes(), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  }
}
