/** Demo data for `npm start`: an operator beside the administrator. Later features add theirs. */
import type { AppContext } from '../app-context.ts';
import { hashPassword } from '../auth/password.ts';
import type { CreatedTenant } from '../modules/groups/tenancy.service.ts';
import { DEMO_PROJECTS, seedDemoSites } from './demo-sites.ts';
import { seedDemoDeviceTypes } from './demo-device-types.ts';
import { seedDemoRecords } from './demo-records.ts';
import { seedDemoCamera } from './demo-video.ts';

export const DEMO_OPERATOR = { account: 'operator', password: 'operator123' };

export async function seedDemo(ctx: AppContext, tenant: CreatedTenant): Promise<void> {
  const operatorId = await ctx.users.insert({
    group_id: tenant.groupId,
    account: DEMO_OPERATOR.account,
    user_name: '张工',
    email: 'operator@example.com',
    phone: '13800138000',
    user_type: 0,
    remark: '巡检运维（演示）',
    password_hash: await hashPassword(DEMO_OPERATOR.password),
    status: 1,
  });
  await ctx.users.assignRole(operatorId, tenant.operatorRoleId, tenant.groupId);
  const types = await seedDemoDeviceTypes(ctx.db, tenant.groupId);
  await seedDemoSites(ctx.db, ctx.deviceEvents, tenant, types.equipmentTypeIds);
  // The camera watches the first station's inlet, beside its first lift pump.
  const pump = DEMO_PROJECTS[0]?.stations[0]?.devices[0];
  if (pump) await seedDemoCamera(ctx.db, tenant.groupId, pump.sn);
  await seedDemoRecords(ctx.db, tenant.groupId);
}
