import { useState } from 'react';
import { Alert, App, Card, Checkbox, Empty, Flex, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@sluice/shared/role.schema';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { errorMessage } from '../../../lib/form-errors';
import { allModulesQueryOptions, allOperatesQueryOptions, useRoleOperates, useSetRoleOperate } from '../api/roles-api';
import { usePermissionNames } from './permission-names';

/** The operates of a role, by module: each tick links or unlinks one operate at once. */
export function RoleOperatesTab({ role, readOnly }: { role: RoleDto; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const names = usePermissionNames();
  const modules = useQuery(allModulesQueryOptions(ctx));
  const operates = useQuery(allOperatesQueryOptions(ctx));
  const held = useRoleOperates(role.Id);
  const setOperate = useSetRoleOperate();
  // Ticks show at once; each stays as ticked while its call (and the refetch after it) runs.
  const [pending, setPending] = useState<ReadonlyMap<number, boolean>>(new Map());

  const error = modules.error ?? operates.error ?? held.error;
  if (error) return <Alert type="error" showIcon title={errorMessage(error)} />;
  if (!modules.data || !operates.data || !held.data) return <Spin />;
  const heldIds = new Set(held.data.map((operate) => operate.Id));
  const moduleRows = [...modules.data.rows].sort((a, b) => a.Id - b.Id);
  if (moduleRows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} />;

  const toggle = (operateId: number, name: string, given: boolean) => {
    setPending((map) => new Map(map).set(operateId, given));
    setOperate.mutate(
      { RoleId: role.Id, OperateId: operateId, given },
      {
        onSuccess: () => void message.success(t(given ? 'roles.operateGiven' : 'roles.operateTaken', { name })),
        onError: (failure) => void message.error(errorMessage(failure)),
        onSettled: () => {
          setPending((map) => {
            const next = new Map(map);
            next.delete(operateId);
            return next;
          });
        },
      },
    );
  };

  return (
    <Flex vertical gap={12}>
      {role.IsAdmin && <Alert type="info" showIcon title={t('roles.adminHint')} />}
      {!readOnly && <Typography.Text type="secondary">{t('roles.operatesHint')}</Typography.Text>}
      {moduleRows.map((module) => {
        const own = operates.data.rows.filter((operate) => operate.ModuleId === module.Id);
        const title = names.moduleName(module);
        return (
          <Card key={module.Id} size="small" title={<h3 style={{ fontSize: 14, margin: 0 }}>{title}</h3>}>
            {own.length === 0 ? (
              <Typography.Text type="secondary">{t('common.empty')}</Typography.Text>
            ) : (
              <Flex vertical gap={6} role="group" aria-label={title}>
                {own.map((operate) => {
                  const name = names.operateName(operate);
                  return (
                    <Checkbox
                      key={operate.Id}
                      checked={pending.get(operate.Id) ?? heldIds.has(operate.Id)}
                      disabled={readOnly || pending.has(operate.Id)}
                      onChange={(event) => {
                        toggle(operate.Id, name, event.target.checked);
                      }}
                    >
                      {name}{' '}
                      <Typography.Text type="secondary" code>
                        {operate.Code}
                      </Typography.Text>
                    </Checkbox>
                  );
                })}
              </Flex>
            )}
          </Card>
        );
      })}
    </Flex>
  );
}
