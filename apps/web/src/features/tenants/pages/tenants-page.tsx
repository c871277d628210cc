/**
 * /sys/tenants: the platform administrator's groups (tenants). Search by name, add a group with
 * its code and first administrator (whose generated password is shown once, to be handed over),
 * edit a group's name, code, description and watermark, upload its logo (PNG), and delete a group
 * (not the platform's own) with everything it holds, once its code is typed again.
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, App, Button, Descriptions, Image, Modal, Tag, Typography } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addGroupRequest, GROUP_LOGO_LIMIT, updateGroupRequest, type GroupDto } from '@sluice/shared/group.schema';
import { checkImage } from '../../../components/image-cropper/image-rules';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { errorMessage } from '../../../lib/form-errors';
import { groupKeys, useGroupId } from '../../../lib/group';
import { DeleteGroupButton } from '../components/delete-group-dialog';
import { tenantsResource, uploadGroupLogo, type CreatedGroup } from '../api/tenants-api';

function LogoButton({ group }: { group: GroupDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const pick = async (file: File | undefined) => {
    if (!file) return;
    const problem = checkImage(file, ['png'], GROUP_LOGO_LIMIT);
    if (problem) {
      void message.error(
        problem.kind === 'wrongType'
          ? t('cropper.wrongType', { types: problem.types })
          : t('cropper.tooLarge', { limit: problem.limit }),
      );
      return;
    }
    setBusy(true);
    try {
      const res = await uploadGroupLogo(group.Id, file, file.name);
      void message.success(res.message);
      await client.invalidateQueries({ queryKey: ['tenants'] });
      await client.invalidateQueries({ queryKey: groupKeys.all });
    } catch (error) {
      void message.error(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        type="link"
        size="small"
        icon={<UploadOutlined aria-hidden />}
        loading={busy}
        aria-label={t('tenants.logoOf', { name: group.GroupName })}
        onClick={() => input.current?.click()}
      >
        {t('tenants.logo')}
      </Button>
      <input
        ref={input}
        type="file"
        accept="image/png,.png"
        hidden
        aria-hidden
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void pick(file);
        }}
      />
    </>
  );
}

function CreatedDialog({ created, onClose }: { created: CreatedGroup | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={created !== undefined}
      title={t('tenants.createdTitle')}
      destroyOnHidden
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {t('tenants.createdDone')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={t('tenants.createdOnce')} style={{ marginBottom: 16 }} />
      <Descriptions
        column={1}
        bordered
        size="small"
        items={[
          {
            key: 'account',
            label: t('tenants.adminAccount'),
            children: <Typography.Text copyable>{created?.Account}</Typography.Text>,
          },
          {
            key: 'password',
            label: t('tenants.adminPassword'),
            children: (
              <Typography.Text code copyable data-testid="created-password">
                {created?.Password}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}

export function TenantsPage() {
  const { t } = useTranslation();
  const ownGroup = useGroupId();
  const [created, setCreated] = useState<CreatedGroup>();
  const config = useMemo<ResourceTableConfig<GroupDto>>(
    () => ({
      resource: tenantsResource(setCreated),
      rowName: (row) => row.GroupName,
      search: { placeholder: 'tenants.search' },
      addLabel: 'tenants.add',
      columns: [
        {
          key: 'Logo',
          title: 'tenants.logo',
          width: 72,
          render: (row) =>
            row.Logo ? (
              <Image src={row.Logo} alt={t('tenants.logoOf', { name: row.GroupName })} width={40} height={40} preview={false} />
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            ),
        },
        { key: 'GroupName', title: 'tenants.groupName' },
        { key: 'Code', title: 'tenants.code' },
        { key: 'Account', title: 'tenants.adminAccount' },
        {
          key: 'Watermark',
          title: 'tenants.watermark',
          render: (row) => (row.Watermark ? <Tag color="green">{t('tenants.on')}</Tag> : <Tag>{t('tenants.off')}</Tag>),
        },
        { key: 'Description', title: 'tenants.description', ellipsis: true, width: 240, onCards: false },
      ],
      rowActions: (row) => (
        <>
          <LogoButton group={row} />
          {row.Id !== ownGroup && <DeleteGroupButton group={row} />}
        </>
      ),
      canDelete: () => false,
      form: {
        createSchema: addGroupRequest,
        updateSchema: updateGroupRequest,
        createTitle: 'tenants.add',
        editTitle: 'tenants.edit',
        initialValues: { Watermark: true },
        fields: [
          { name: 'GroupName', label: 'tenants.groupName', kind: 'text', autoComplete: 'organization' },
          { name: 'Code', label: 'tenants.code', kind: 'text', help: 'tenants.codeHelp' },
          { name: 'Account', label: 'tenants.adminAccount', kind: 'text', modes: ['create'], help: 'tenants.accountHelp' },
          { name: 'Description', label: 'tenants.description', kind: 'textarea' },
          { name: 'Watermark', label: 'tenants.watermark', kind: 'switch', modes: ['edit'], help: 'tenants.watermarkHelp' },
        ],
      },
    }),
    [t, ownGroup],
  );
  return (
    <>
      <ResourceTable config={config} title={t('routes.tenants')} description={t('tenants.hint')} syncUrl />
      <CreatedDialog
        created={created}
        onClose={() => {
          setCreated(undefined);
        }}
      />
    </>
  );
}
