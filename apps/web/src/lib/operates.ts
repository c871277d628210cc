/**
 * Whether the signed-in user may make the calls of an operate (packages/shared permissions.ts),
 * to hide what they may not do; the server checks every call anyway. GET /api/user/myinfo sends
 * the codes the user's roles hold as `Operates` (every code for an administrator, who passes
 * every operate check).
 */
import { useQuery } from '@tanstack/react-query';
import type { OperateCode } from '@sluice/shared/permissions';
import { myInfoQueryOptions } from './current-user';
import type { CurrentUser } from './session';

export function mayOperate(user: CurrentUser | undefined, code: OperateCode): boolean {
  if (!user) return false;
  return user.IsAdmin || user.Operates.includes(code);
}

export function useMayOperate(code: OperateCode): boolean {
  const { data: user } = useQuery(myInfoQueryOptions());
  return mayOperate(user, code);
}
