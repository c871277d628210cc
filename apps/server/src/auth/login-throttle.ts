/**
 * Throttling of sign-in and registration, kept in the database so that several server instances
 * share it. Every attempt is counted before the password is checked, in one atomic statement per
 * key, so guesses sent in parallel cannot slip past a limit; a successful sign-in takes its own
 * attempt back. After a key's free attempts inside its window, each further attempt is refused
 * and locks the key for a doubling delay; attempts while locked are refused without counting.
 *
 * Sign-in counts three keys:
 * - the account from one address (`pair`): a few attempts, so one stranger locks out only
 *   themselves;
 * - the account from anywhere (`account`): many more, against guessing from many addresses; an
 *   address the account signed in from lately is exempt, so even this limit does not lock the
 *   user out where they usually work;
 * - the address, whatever the account (`address`): against one address trying many accounts.
 * Registration counts its address.
 */
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const MINUTE = 60 * 1000;

export interface ThrottleRule {
  /** Attempts allowed inside the window before each further one locks the key. */
  free: number;
  windowMs: number;
  /** The first lock; each further attempt over the limit doubles it, up to maxLockMs. */
  baseLockMs: number;
  maxLockMs: number;
}

export const THROTTLE_RULES = {
  pair: { free: 5, windowMs: 15 * MINUTE, baseLockMs: 30 * 1000, maxLockMs: 15 * MINUTE },
  account: { free: 50, windowMs: 60 * MINUTE, baseLockMs: MINUTE, maxLockMs: 15 * MINUTE },
  address: { free: 20, windowMs: 15 * MINUTE, baseLockMs: 30 * 1000, maxLockMs: 15 * MINUTE },
  register: { free: 5, windowMs: 60 * MINUTE, baseLockMs: MINUTE, maxLockMs: 60 * MINUTE },
} satisfies Record<string, ThrottleRule>;

type Kind = keyof typeof THROTTLE_RULES;

/** How long an address the account signed in from stays exempt from the account-wide limit. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * MINUTE;
const LONGEST_WINDOW_MS = Math.max(...Object.values(THROTTLE_RULES).map((r) => r.windowMs));

const keyOf = (kind: Kind | 'known', id: string) => `${kind}:${id}`;
const pairId = (account: string, address: string) => `${account.toLowerCase()}|${address}`;

export class LoginThrottle {
  private readonly db: Db;
  constructor(db: Db) {
    this.db = db;
  }

  /** Counts a sign-in attempt; answers how many milliseconds to wait (0: go on and check the password). */
  async signInAttempt(account: string, address: string, now = Date.now()): Promise<number> {
    const keys: [Kind, string][] = [
      ['pair', pairId(account, address)],
      ['address', address],
    ];
    if (!(await this.isKnown(account, address, now))) keys.push(['account', account.toLowerCase()]);
    return this.attempt(keys, now);
  }

  /** A sign-in succeeded: the pair starts afresh, the other keys forget this attempt, the address becomes known. */
  async signInSucceeded(account: string, address: string, now = Date.now()): Promise<void> {
    const pair = pairId(account, address);
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('login_throttle').where('key', '=', keyOf('pair', pair)).execute();
      await trx
        .updateTable('login_throttle')
        .set({ failures: sql`failures - 1` })
        .where('key', 'in', [keyOf('account', account.toLowerCase()), keyOf('address', address)])
        .where('failures', '>', 0)
        .execute();
      await trx
        .insertInto('login_throttle')
        .values({ key: keyOf('known', pair), failures: 0, window_start: now, locked_until: 0 })
        .onConflict((oc) => oc.column('key').doUpdateSet({ window_start: now }))
        .execute();
    });
  }

  /** Counts a registration from an address; answers how many milliseconds to wait (0: go on). */
  registrationAttempt(address: string, now = Date.now()): Promise<number> {
    return this.attempt([['register', address]], now);
  }

  /** Forgets counts whose window and lock are over, and addresses not used for a long time. */
  async purge(now = Date.now()): Promise<void> {
    await this.db
      .deleteFrom('login_throttle')
      .where((eb) =>
        eb.or([
          eb.and([
            eb('key', 'not like', 'known:%'),
            eb('window_start', '<', now - LONGEST_WINDOW_MS),
            eb('locked_until', '<', now),
          ]),
          eb.and([eb('key', 'like', 'known:%'), eb('window_start', '<', now - KNOWN_ADDRESS_MS)]),
        ]),
      )
      .execute();
  }

  /** Forgets an account's failed sign-ins and locks, everywhere (its password was just reset). */
  async forgetAccount(account: string): Promise<void> {
    const id = account.toLowerCase();
    await this.db
      .deleteFrom('login_throttle')
      .where((eb) => eb.or([eb('key', '=', keyOf('account', id)), eb('key', 'like', `${keyOf('pair', id)}|%`)]))
      .execute();
  }

  private async isKnown(account: string, address: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('login_throttle')
      .select('window_start')
      .where('key', '=', keyOf('known', pairId(account, address)))
      .executeTakeFirst();
    return row !== undefined && now - row.window_start < KNOWN_ADDRESS_MS;
  }

  private async attempt(keys: [Kind, string][], now: number): Promise<number> {
    const names = keys.map(([kind, id]) => keyOf(kind, id));
    const locks = await this.db.selectFrom('login_throttle').select('locked_until').where('key', 'in', names).execute();
    const locked = Math.max(0, ...locks.map((r) => r.locked_until - now));
    if (locked > 0) return locked;

    let wait = 0;
    for (const [kind, id] of keys) {
      const rule: ThrottleRule = THROTTLE_RULES[kind];
      const key = keyOf(kind, id);
      const windowOver = now - rule.windowMs;
      // One statement, so that concurrent attempts (on any instance) each get their own count.
      const { failures } = await this.db
        .insertInto('login_throttle')
        .values({ key, failures: 1, window_start: now, locked_until: 0 })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            failures: sql`case when login_throttle.window_start < ${windowOver} then 1 else login_throttle.failures + 1 end`,
            window_start: sql`case when login_throttle.window_start < ${windowOver} then ${now} else login_throttle.window_start end`,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      const over = failures - rule.free;
      if (over <= 0) continue;
      const lockMs = Math.min(rule.maxLockMs, rule.baseLockMs * 2 ** Math.min(over - 1, 30));
      await this.db
        .updateTable('login_throttle')
        .set({ locked_until: now + lockMs })
        .where('key', '=', key)
        .where('locked_until', '<', now + lockMs)
        .execute();
      wait = Math.max(wait, lockMs);
    }
    return wait;
  }
}
