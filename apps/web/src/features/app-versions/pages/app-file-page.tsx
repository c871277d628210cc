import { App, Form, Input, Switch, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { APP_FILE_LIMIT, appUploadFields, updateAppVersionRequest, type AppVersionDto } from '@sluice/shared/app-version.schema';
import { FileLink } from '../../../components/file-upload/file-link';
import { FileUploadButton } from '../../../components/file-upload/file-upload-dialog';
import { ResourceTable } from '../../../components/resource-table/resource-table';
import type { ResourceTableConfig } from '../../../components/resource-table/resource-types';
import { errorMessage } from '../../../lib/form-errors';
import { zodFieldRules } from '../../../lib/zod-form';
import { appVersionsResource, uploadAppPackage, useSetAppState } from '../api/app-versions-api';
import { useMayOperate } from '../../../lib/operates';

function StateSwitch({ row }: { row: AppVersionDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const setState = useSetAppState();
  return (
    <Switch
      checked={row.State}
      loading={setState.isPending}
      aria-label={t('appVersions.enabledOf', { version: row.VersionNo })}
      checkedChildren={t('appVersions.enabled')}
      unCheckedChildren={t('appVersions.disabled')}
      onChange={(checked) => {
        setState.mutate(
          { ...row, State: checked },
          {
            onSuccess: (response) => {
              void message.success(response.message || t('resource.saved'));
              void queryClient.invalidateQueries({ queryKey: appVersionsResource.keys.all });
            },
            onError: (error) => {
              void message.error(errorMessage(error));
            },
          },
        );
      }}
    />
  );
}

const config: ResourceTableConfig<AppVersionDto> = {
  resource: appVersionsResource,
  rowName: (row) => row.VersionNo,
  search: { placeholder: 'appVersions.searchPlaceholder' },
  defaultSort: { key: 'CreatedAt', order: 'desc' },
  columns: [
    {
      key: 'VersionNo',
      title: 'appVersions.versionNo',
      sortKey: 'VersionNo',
      render: (row) => <Typography.Text strong>{row.VersionNo}</Typography.Text>,
    },
    { key: 'Type', title: 'appVersions.type', sortKey: 'Type' },
    { key: 'Description', title: 'appVersions.description', ellipsis: true, width: 260 },
    { key: 'State', title: 'appVersions.state', sortKey: 'State', render: (row) => <StateSwitch row={row} /> },
    {
      key: 'FileName',
      title: 'appVersions.file',
      render: (row) => <FileLink url={row.url} fileName={row.FileName} size={row.Size} />,
    },
    { key: 'CreatedAt', title: 'appVersions.createdAt', sortKey: 'CreatedAt', format: 'dateTime' },
  ],
  form: {
    createSchema: appUploadFields,
    updateSchema: updateAppVersionRequest,
    createTitle: 'appVersions.upload',
    editTitle: 'appVersions.edit',
    fields: [
      { name: 'VersionNo', label: 'appVersions.versionNo', kind: 'text', placeholder: 'appVersions.versionPlaceholder' },
      { name: 'Description', label: 'appVersions.description', kind: 'textarea' },
      { name: 'State', label: 'appVersions.enabled', kind: 'switch' },
    ],
  },
};

const isApk = (file: File) => file.name.toLowerCase().endsWith('.apk') || file.type === 'application/vnd.android.package-archive';

/** /sys/appfile: the mobile app's packages, uploaded here and downloaded by the app. */
export function AppFilePage() {
  const { t } = useTranslation();
  const mayManage = useMayOperate('system.manage');
  return (
    <>
      <ResourceTable
        config={config}
        title={t('routes.appFile')}
        description={t('appVersions.pageDescription')}
        syncUrl
        toolbarExtra={
          mayManage && (
            <FileUploadButton
              label={t('appVersions.upload')}
              accept=".apk,application/vnd.android.package-archive"
              maxBytes={APP_FILE_LIMIT}
              kindsLabel="APK"
              isAccepted={isApk}
              initialValues={{ State: true, Type: 'android' }}
              fieldNames={['VersionNo', 'Description', 'Type', 'State']}
              onUpload={async (file, values, onProgress, signal) => {
                const response = await uploadAppPackage(
                  file,
                  {
                    VersionNo: typeof values.VersionNo === 'string' ? values.VersionNo.trim() : '',
                    Description: typeof values.Description === 'string' ? values.Description : '',
                    Type: typeof values.Type === 'string' ? values.Type : 'android',
                    State: values.State !== false,
                  },
                  onProgress,
                  signal,
                );
                return response.message;
              }}
            >
              <Form.Item
                name="VersionNo"
                label={t('appVersions.versionNo')}
                rules={zodFieldRules(appUploadFields.shape.VersionNo)}
              >
                <Input placeholder={t('appVersions.versionPlaceholder')} autoComplete="off" />
              </Form.Item>
              <Form.Item name="Type" label={t('appVersions.type')} rules={zodFieldRules(appUploadFields.shape.Type)}>
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item name="Description" label={t('appVersions.description')}>
                <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
              </Form.Item>
              <Form.Item name="State" label={t('appVersions.enabled')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </FileUploadButton>
          )
        }
      />
    </>
  );
}
