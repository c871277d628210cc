/** Seeded modules and operates have names in both languages (packages/shared permissions.ts). */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_MODULES } from '@sluice/shared/permissions';
import type { ModuleDto, OperateDto } from '@sluice/shared/role.schema';
import { isLanguage } from '../../../lib/i18n';

const operates = new Map<string, { 'en-US': string; 'zh-CN': string }>(
  PERMISSION_MODULES.flatMap((module) => module.operates.map((operate) => [operate.Code, operate.Name] as const)),
);
const modules = new Map<string, { 'en-US': string; 'zh-CN': string }>(
  PERMISSION_MODULES.map((module) => [module.Code, module.ModuleName]),
);

/** Names in the UI language when the code is a known one, else as stored. */
export function usePermissionNames() {
  const { i18n } = useTranslation();
  const lang = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : 'en-US';
  return useMemo(
    () => ({
      moduleName: (module: Pick<ModuleDto, 'Code' | 'ModuleName'>) => modules.get(module.Code)?.[lang] ?? module.ModuleName,
      operateName: (operate: Pick<OperateDto, 'Code' | 'Name'>) => operates.get(operate.Code)?.[lang] ?? operate.Name,
    }),
    [lang],
  );
}
