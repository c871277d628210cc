/**
 * npm run admin:reset-password -- [--account A] [--password P]
 *
 * For the server's machine, when an administrator's password is lost: sets a new password for
 * the account (ADMIN_ACCOUNT's by default; a random one unless --password gives it), signs that
 * user out everywhere and forgets their failed sign-ins. It uses the server's own configuration
 * (DATA_DIR or DATABASE_URL, from the environment), so it works on SQLite and PostgreSQL alike,
 * with the server running or not.
 */
import { parseArgs } from 'node:util';
import { PASSWORD_MAX, PASSWORD_MIN, password as passwordRule } from '@sluice/shared/rules';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { hashPassword } from '../auth/password.ts';
import { createContext, type AppContext } from '../app-context.ts';
import { randomPassword } from '../modules/groups/tenancy.service.ts';

class ResetError extends Error {}

/** Sets the account's new password, revokes its sessions and forgets its failed sign-ins. */
async function resetPassword(ctx: AppContext, account: string, given?: string, now = Date.now()): Promise<string> {
  const password = given ?? randomPassword();
  if (!passwordRule.safeParse(password).success)
    throw new ResetError(
      `The password must be ${String(PASSWORD_MIN)}–${String(PASSWORD_MAX)} characters with letters and digits.`,
    );
  const user = await ctx.users.findByAccount(account);
  if (!user) throw new ResetError(`There is no account "${account}".`);
  await ctx.users.setPasswordRevokingSessions(user.id, user.group_id, await hashPassword(password), now);
  await ctx.throttle.forgetAccount(user.account);
  return password;
}

async function main(): Promise<void> {
  const { values: args } = parseArgs({ options: { account: { type: 'string' }, password: { type: 'string' } } });
  const config = loadConfig();
  const account = args.account ?? config.ADMIN_ACCOUNT;
  const database = await openDatabase({ dataDir: config.DATA_DIR, databaseUrl: config.DATABASE_URL });
  try {
    const password = await resetPassword(createContext(config, database.db, database.dialect), account, args.password);
    console.log(
      args.password === undefined
        ? `The password of "${account}" is now "${password}"; every session of it is signed out. Change it after signing in.`
        : `The password of "${account}" is set; every session of it is signed out.`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof ResetError || error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
