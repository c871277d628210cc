/**
 * Whether the signed-in user may make the calls of an operate (packages/shared permissions.ts),
 * to hide what they may not do; the server checks every call anyway. Administrators hold every
 * operate. For others the console needs the codes their roles hold: it reads `Operates` of
 * GET /api/user/myinfo when the server sends it, and otherwise shows the action and lets the
 * server decide.
 */
import { useQuery } from '@tanstack/react-query';
import type { OperateCode } from '@sluice/shared/permissions';
import { myInfoQueryOptions } from './current-user';
import type { CurrentUser } from './session';

export function mayOperate(user: CurrentUser | undefined, code: OperateCode): boolean {
  if (!user) return false;
  if (user.IsAdmin) return true;
  const held: unknown = (user as CurrentUser & { Operates?: unknown }).Operates;
  return Array.isArray(held) ? held.includes(code) : true;
}

export function useMayOperate(code: OperateCode): boolean {
  const { data: user } = useQuery(myInfoQueryOptions());
  return mayOperate(user, code);
}
