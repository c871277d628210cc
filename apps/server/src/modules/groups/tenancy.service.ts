/** Creating a tenant: the group, its default roles and its first administrator, together. */
import { DEFAULT_ROLE_NAMES } from '@sluice/shared/role.schema';
import { randomInt } from 'node:crypto';
import { AppError } from '../../http/errors.ts';
import { hashPassword } from '../../auth/password.ts';
import type { Db } from '../../db/database.ts';
import { GroupsRepository } from './groups.repository.ts';
import { UsersRepository } from '../account/users.repository.ts';
import { seedTenantDefaults } from './tenant-defaults.ts';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A random password of letters and digits that always has both. */
export function randomPassword(length = 16): string {
  for (;;) {
    const candidate = Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    if (/[A-Za-z]/.test(candidate) && /\d/.test(candidate)) return candidate;
  }
}

export interface NewTenant {
  groupName: string;
  code: string;
  description?: string | undefined;
  adminAccount: string;
  adminPassword?: string | undefined;
  platformAdmin?: boolean;
}

export interface CreatedTenant {
  groupId: number;
  adminId: number;
  adminRoleId: number;
  operatorRoleId: number;
  password: string;
  generatedPassword: boolean;
}

export async function createTenant(db: Db, tenant: NewTenant): Promise<CreatedTenant> {
  const password = tenant.adminPassword ?? randomPassword();
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    const groups = new GroupsRepository(trx);
    const users = new UsersRepository(trx);
    if (await groups.nameOrCodeTaken(tenant.groupName, tenant.code)) {
      throw new AppError(409, 'group.exists', { name: tenant.groupName }, 'GroupName');
    }
    if (await users.accountTaken(tenant.adminAccount)) {
      throw new AppError(409, 'account.exists', { account: tenant.adminAccount }, 'Account');
    }
    const groupId = await groups.insert({
      group_name: tenant.groupName,
      account: tenant.adminAccount,
      code: tenant.code,
      description: tenant.description ?? '',
    });
    const adminRoleId = await groups.insertRole({ group_id: groupId, name: DEFAULT_ROLE_NAMES.administrator, is_admin: 1 });
    const operatorRoleId = await groups.insertRole({ group_id: groupId, name: DEFAULT_ROLE_NAMES.operator, is_admin: 0 });
    await seedTenantDefaults(groups, groupId, adminRoleId, operatorRoleId);
    const adminId = await users.insert({
      group_id: groupId,
      account: tenant.adminAccount,
      user_name: tenant.adminAccount,
      email: '',
      phone: '',
      user_type: 1,
      remark: '',
      password_hash: passwordHash,
      status: 1,
      is_platform_admin: tenant.platformAdmin ? 1 : 0,
    });
    await users.assignRole(adminId, adminRoleId, groupId);
    return {
      groupId,
      adminId,
      adminRoleId,
      operatorRoleId,
      password,
      generatedPassword: tenant.adminPassword === undefined,
    };
  });
}
