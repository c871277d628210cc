/** A project's extra facts (name and value), editable by users who may manage projects. */
import { Form, Input } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { anyText } from '@sluice/shared/rules';
import { useMayOperate } from '../../../lib/operates';
import { zodFieldRules } from '../../../lib/zod-form';
import { affiliatesQueryOptions, useRemoveAffiliate, useSaveAffiliate } from '../api/projects-api';
import { EditableList } from '../../../components/sites/editable-list';

export function AffiliatesPanel({ projectId }: { projectId: number }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('project.manage');
  const { data = [], isPending } = useQuery(affiliatesQueryOptions(projectId));
  const save = useSaveAffiliate(projectId);
  const remove = useRemoveAffiliate(projectId);
  return (
    <EditableList
      rows={data}
      loading={isPending}
      mayManage={mayManage}
      rowName={(item) => item.AffiliateName}
      description={(item) => item.AffiliateValue || '—'}
      addLabel={t('sites.affiliates.add')}
      emptyText={t('sites.affiliates.none')}
      blank={{ AffiliateName: '', AffiliateValue: '' }}
      fields={
        <>
          <Form.Item name="AffiliateName" label={t('sites.affiliates.name')} rules={zodFieldRules(anyText(1, 64))}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="AffiliateValue" label={t('sites.affiliates.value')} rules={zodFieldRules(anyText(0, 500).optional())}>
            <Input autoComplete="off" />
          </Form.Item>
        </>
      }
      save={(values, item) => save.mutateAsync({ ...values, Id: item?.Id })}
      saving={save.isPending}
      remove={(item) => remove.mutateAsync(item.Id)}
    />
  );
}
