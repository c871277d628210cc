/**
 * Warn (alarm) types and codes (spec §7 Alarms): types by id; codes added under their type
 * ({typeId}/warncode) and changed or deleted by their code under their type.
 */
import type { WarnCodeDto, WarnTypeDto } from '@sluice/shared/warn.schema';
import { defineResource } from '../../../components/resource-table/resource';

export const warnTypesResource = defineResource<WarnTypeDto>({
  key: 'warn-types',
  operate: 'system.manage',
  list: 'GET /warntype/pages',
  create: 'POST /warntype',
  update: 'PUT /warntype',
  remove: 'DELETE /warntype/:id',
});

export const warnCodesResource = defineResource<WarnCodeDto>({
  key: 'warn-codes',
  operate: 'system.manage',
  list: 'GET /warnCode',
  // The type and the code in these paths are the record's own (its type before a move).
  create: 'POST /{WarnTypeId}/warncode',
  update: 'PUT /{WarnTypeId}/warncode/{Code}',
  remove: 'DELETE /{WarnTypeId}/warncode/{Code}',
});
