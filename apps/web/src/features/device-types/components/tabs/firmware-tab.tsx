/**
 * A type's upgrade files (TypeUpdateFile): firmware up to 3 MB, with a version by the file-version
 * rule (V1.1.2, v1.1.x) and a role (main system, subsystem, bootloader); downloadable, editable,
 * deletable.
 */
import { useMemo } from 'react';
import { Form, Input, Radio, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  FIRMWARE_LIMIT,
  FIRMWARE_ROLES,
  typeUpdateFileFields,
  updateTypeUpdateFileRequest,
} from '@sluice/shared/device-type.schema';
import { FileLink } from '../../../../components/file-upload/file-link';
import { FileUploadButton } from '../../../../components/file-upload/file-upload-dialog';
import { ResourceTable } from '../../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../../components/resource-table/resource-types';
import { zodFieldRules } from '../../../../lib/zod-form';
import { firmwareResource, uploadFirmware, type TypeUpdateFileDto } from '../../api/device-types-api';
import { useMayOperate } from '../../../../lib/operates';

const ROLE_OPTIONS = FIRMWARE_ROLES.map((role) => ({ value: role, labelKey: `typeFirmware.roles.${role}` as const }));

export function FirmwareTab({ typeId }: { typeId: number }) {
  const { t } = useTranslation();
  const mayManage = useMayOperate('system.manage');

  const config = useMemo<ResourceTableConfig<TypeUpdateFileDto>>(
    () => ({
      resource: firmwareResource,
      rowName: (row) => `${row.FileName} ${row.Version}`,
      search: { placeholder: 'typeFirmware.searchPlaceholder' },
      defaultSort: { key: 'CreatedAt', order: 'desc' },
      columns: [
        {
          key: 'FileName',
          title: 'typeFirmware.file',
          render: (row) => <FileLink url={row.url} fileName={row.FileName} size={row.Size} />,
        },
        {
          key: 'Version',
          title: 'typeFirmware.version',
          sortKey: 'Version',
          render: (row) => <Typography.Text strong>{row.Version}</Typography.Text>,
        },
        {
          key: 'Role',
          title: 'typeFirmware.role',
          sortKey: 'Role',
          render: (row) => <Tag color="blue">{t(`typeFirmware.roles.${row.Role}`)}</Tag>,
        },
        { key: 'Description', title: 'typeFirmware.description', ellipsis: true, width: 200 },
        {
          key: 'Sha256',
          title: 'typeFirmware.sha256',
          ellipsis: true,
          width: 160,
          onCards: false,
          render: (row) => (
            <Typography.Text code copyable={{ text: row.Sha256 }}>
              {row.Sha256.slice(0, 12)}…
            </Typography.Text>
          ),
        },
        {
          key: 'CreatedAt',
          title: 'typeFirmware.createdAt',
          sortKey: 'CreatedAt',
          format: 'dateTime',
        },
      ],
      form: {
        createSchema: typeUpdateFileFields,
        updateSchema: updateTypeUpdateFileRequest,
        createTitle: 'typeFirmware.upload',
        editTitle: 'typeFirmware.edit',
        fields: [
          { name: 'Version', label: 'typeFirmware.version', kind: 'text', placeholder: 'typeFirmware.versionPlaceholder' },
          { name: 'Role', label: 'typeFirmware.role', kind: 'radio', options: ROLE_OPTIONS },
          { name: 'Description', label: 'typeFirmware.description', kind: 'textarea' },
        ],
      },
    }),
    [t],
  );

  return (
    <>
      <ResourceTable
        config={config}
        pathParams={{ typeId }}
        description={t('typeFirmware.pageDescription')}
        compact
        toolbarExtra={
          mayManage && (
            <FileUploadButton
              label={t('typeFirmware.upload')}
              accept=".bin,.hex,.fw,.img,.dat,application/octet-stream"
              maxBytes={FIRMWARE_LIMIT}
              kindsLabel={t('typeFirmware.kinds')}
              isAccepted={() => true}
              initialValues={{ Role: 'main', Description: '' }}
              fieldNames={['Version', 'Role', 'Description']}
              onUpload={async (file, values, onProgress, signal) =>
                (
                  await uploadFirmware(
                    typeId,
                    file,
                    {
                      Version: typeof values.Version === 'string' ? values.Version.trim() : '',
                      Role: typeof values.Role === 'string' ? values.Role : 'main',
                      Description: typeof values.Description === 'string' ? values.Description : '',
                    },
                    onProgress,
                    signal,
                  )
                ).message
              }
            >
              <Form.Item
                name="Version"
                label={t('typeFirmware.version')}
                rules={zodFieldRules(typeUpdateFileFields.shape.Version)}
              >
                <Input placeholder={t('typeFirmware.versionPlaceholder')} autoComplete="off" />
              </Form.Item>
              <Form.Item name="Role" label={t('typeFirmware.role')}>
                <Radio.Group
                  optionType="button"
                  buttonStyle="solid"
                  options={FIRMWARE_ROLES.map((role) => ({ value: role, label: t(`typeFirmware.roles.${role}`) }))}
                />
              </Form.Item>
              <Form.Item name="Description" label={t('typeFirmware.description')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} />
              </Form.Item>
            </FileUploadButton>
          )
        }
      />
    </>
  );
}
