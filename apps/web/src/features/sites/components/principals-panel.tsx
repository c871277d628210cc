/** The people responsible for a project, station or device (Name, a mainland mobile or a landline), editable by users who may manage projects. */
import { Form, Input } from 'antd';
import { PhoneOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addPrincipalRequest } from '@sluice/shared/project.schema';
import { useMayOperate } from '../../../lib/operates';
import { zodRules } from '../../../lib/zod-form';
import { principalsQueryOptions, useRemovePrincipal, useSavePrincipal } from '../api/projects-api';
import { EditableList } from '../../../components/sites/editable-list';

export function PrincipalsPanel({ kind, id }: { kind: 'project' | 'station' | 'device'; id: string | number }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('project.manage');
  const { data = [], isPending } = useQuery(principalsQueryOptions(kind, id));
  const save = useSavePrincipal(kind, id);
  const remove = useRemovePrincipal(kind, id);
  return (
    <EditableList
      rows={data}
      loading={isPending}
      mayManage={mayManage}
      rowName={(item) => item.Name}
      description={(item) => (
        <a href={`tel:${item.Phone}`}>
          <PhoneOutlined /> {item.Phone}
        </a>
      )}
      addLabel={t('sites.principals.add')}
      emptyText={t('sites.principals.none')}
      blank={{ Name: '', Phone: '' }}
      fields={
        <>
          <Form.Item name="Name" label={t('sites.principals.name')} rules={zodRules(addPrincipalRequest, 'Name')}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="Phone" label={t('sites.principals.phone')} rules={zodRules(addPrincipalRequest, 'Phone')}>
            <Input autoComplete="off" inputMode="tel" />
          </Form.Item>
        </>
      }
      save={(values, item) => save.mutateAsync({ ...values, Id: item?.Id })}
      saving={save.isPending}
      remove={(item) => remove.mutateAsync(item.Id)}
    />
  );
}
