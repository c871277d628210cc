/**
 * Some calls carry a free segment before the resource ({module}/roleproject, {kind}/{sn}/DeviceImage):
 * older consoles put a word or the group id there. A number there must be the caller's group.
 */
import { AppError } from '../../http/errors.ts';
import type { CurrentUser } from '../../auth/current-user.ts';

export function checkGroupSegment(segment: string, user: CurrentUser): void {
  if (/^\d+$/.test(segment) && Number(segment) !== user.groupId) throw new AppError(403, 'auth.otherGroup');
}
