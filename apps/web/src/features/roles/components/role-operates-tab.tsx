import { useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Empty, Flex, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RoleDto } from '@sluice/shared/role.schema';
import { useResourceContext } from '../../../components/resource-table/use-resource-context';
import { errorMessage } from '../../../lib/form-errors';
import { allModulesQueryOptions, allOperatesQueryOptions, useRoleOperates, useSetRoleOperate } from '../api/roles-api';
import { usePermissionNames } from './permission-names';

/**
 * The operates of a role, by module: ticked, then saved with one button, as the menus and
 * projects tabs are (the links and unlinks the ticks imply are sent in turn).
 */
export function RoleOperatesTab({ role, readOnly }: { role: RoleDto; readOnly: boolean }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const ctx = useResourceContext();
  const names = usePermissionNames();
  const modules = useQuery(allModulesQueryOptions(ctx));
  const operates = useQuery(allOperatesQueryOptions(ctx));
  const held = useRoleOperates(role.Id);
  const setOperate = useSetRoleOperate();
  const [picked, setPicked] = useState<ReadonlySet<number>>();
  const [saving, setSaving] = useState(false);

  const error = modules.error ?? operates.error ?? held.error;
  if (error) return <Alert type="error" showIcon title={errorMessage(error)} />;
  if (!modules.data || !operates.data || !held.data) return <Spin />;
  const heldIds = new Set(held.data.map((operate) => operate.Id));
  const ticked = picked ?? heldIds;
  const changes = operates.data.rows.filter((operate) => ticked.has(operate.Id) !== heldIds.has(operate.Id));
  const moduleRows = [...modules.data.rows].sort((a, b) => a.Id - b.Id);
  if (moduleRows.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} />;

  const toggle = (operateId: number, given: boolean) => {
    const next = new Set(ticked);
    if (given) next.add(operateId);
    else next.delete(operateId);
    setPicked(next);
  };

  const save = async () => {
    setSaving(true);
    try {
      for (const operate of changes) {
        await setOperate.mutateAsync({ RoleId: role.Id, OperateId: operate.Id, given: ticked.has(operate.Id) });
      }
      void message.success(t('roles.operatesSaved'));
      setPicked(undefined);
    } catch (failure) {
      void message.error(errorMessage(failure));
    } finally {
      setSaving(false);
    }
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
                      checked={ticked.has(operate.Id)}
                      disabled={readOnly || saving}
                      onChange={(event) => {
                        toggle(operate.Id, event.target.checked);
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
      {!readOnly && (
        <Flex gap={8} align="center">
          <Button
            type="primary"
            onClick={() => {
              void save();
            }}
            loading={saving}
            disabled={changes.length === 0}
          >
            {t('roles.saveOperates')}
          </Button>
          {changes.length > 0 && <Tag color="warning">{t('roles.unsaved')}</Tag>}
        </Flex>
      )}
    </Flex>
  );
}
