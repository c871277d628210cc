/**
 * Deleting a group (DELETE group/{id}): the dialog says what goes with it (GET group/{id}/contents)
 * and deletes only once the group's code is typed again (not minding case), as the server checks.
 */
import { useId, useState } from 'react';
import { Alert, App, Button, Flex, Input, Modal, Skeleton, Typography } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GroupDto } from '@sluice/shared/group.schema';
import { QueryError } from '../../../components/query-state';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/form-errors';
import { deleteGroup, groupContentsQueryOptions } from '../api/tenants-api';

function DeleteGroupDialog({ group, onClose }: { group: GroupDto; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const contents = useQuery(groupContentsQueryOptions(group.Id));
  const remove = useMutation({
    mutationFn: () => deleteGroup(group.Id, typed),
    onSuccess: async () => {
      void message.success(t('tenants.deleted', { name: group.GroupName }));
      onClose();
      await client.invalidateQueries({ queryKey: ['tenants'] });
    },
  });
  const matches = typed.trim().toLowerCase() === group.Code.toLowerCase();
  const fieldError = isApiError(remove.error) ? remove.error.fieldErrors.find((e) => e.field === 'Code')?.message : undefined;
  const c = contents.data;
  return (
    <Modal
      open
      title={t('tenants.deleteTitle', { name: group.GroupName })}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('common.cancel')}
        </Button>,
        <Button
          key="delete"
          danger
          type="primary"
          disabled={!matches || !c}
          loading={remove.isPending}
          onClick={() => {
            remove.mutate();
          }}
        >
          {t('tenants.deleteConfirm')}
        </Button>,
      ]}
    >
      <Flex vertical gap={12}>
        {contents.isError ? (
          <QueryError query={contents} />
        ) : !c ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : (
          <Alert
            type="error"
            showIcon
            title={t('tenants.deleteHolds')}
            description={
              <>
                <ul style={{ margin: '4px 0', paddingInlineStart: 20 }}>
                  <li>{t('tenants.deleteUsers', { count: c.Users })}</li>
                  <li>{t('tenants.deleteDevices', { count: c.Devices })}</li>
                  <li>{t('tenants.deleteSites', { count: c.Sites })}</li>
                  <li>{t('tenants.deleteClients', { count: c.Clients })}</li>
                  <li>{t('tenants.deleteSettings')}</li>
                </ul>
                {t('tenants.deleteEffects')}
              </>
            }
          />
        )}
        <label htmlFor={inputId}>{t('tenants.deleteType', { code: group.Code })}</label>
        <Input
          id={inputId}
          value={typed}
          autoComplete="off"
          status={fieldError ? 'error' : undefined}
          aria-invalid={fieldError ? true : undefined}
          onChange={(event) => {
            setTyped(event.target.value);
          }}
          onPressEnter={() => {
            if (matches && c) remove.mutate();
          }}
        />
        {remove.isError && (
          <Typography.Text type="danger" role="alert">
            {fieldError ?? errorMessage(remove.error)}
          </Typography.Text>
        )}
      </Flex>
    </Modal>
  );
}

/** The row's Delete: opens the dialog (never for the platform's own group, which the server refuses too). */
export function DeleteGroupButton({ group }: { group: GroupDto }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined aria-hidden />}
        aria-label={t('tenants.deleteOf', { name: group.GroupName })}
        onClick={() => {
          setOpen(true);
        }}
      >
        {t('tenants.delete')}
      </Button>
      {open && (
        <DeleteGroupDialog
          group={group}
          onClose={() => {
            setOpen(false);
          }}
        />
      )}
    </>
  );
}
