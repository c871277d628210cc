/**
 * A new database gets its first group and administrator; with DEMO on, also the demo tenant's
 * data. Returns the administrator's credentials for the start-up log when it created them.
 */
import type { AppContext } from '../app-context.ts';
import { createTenant } from '../modules/groups/tenancy.service.ts';
import { seedDemo } from './demo.ts';

export interface BootstrapResult {
  account: string;
  password: string | undefined;
  created: boolean;
}

export async function bootstrap(ctx: AppContext): Promise<BootstrapResult> {
  const { config, db } = ctx;
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return { account: config.ADMIN_ACCOUNT, password: undefined, created: false };
  const tenant = await createTenant(db, {
    groupName: config.DEMO ? '演示水务' : 'Sluice',
    code: config.DEMO ? 'demo' : 'sluice',
    description: config.DEMO ? 'Demo tenant with simulated village wastewater stations' : '',
    adminAccount: config.ADMIN_ACCOUNT,
    adminPassword: config.ADMIN_PASSWORD,
    platformAdmin: true,
  });
  if (config.DEMO) await seedDemo(ctx, tenant);
  return {
    account: config.ADMIN_ACCOUNT,
    password: tenant.generatedPassword ? tenant.password : undefined,
    created: true,
  };
}
