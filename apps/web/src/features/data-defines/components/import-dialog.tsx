/**
 * Importing the library from a CSV file or an Excel workbook (spec §7, decisions: CSV in UTF-8,
 * comma, semicolon or tab separated; a workbook's first sheet; the export's columns): new keys are
 * added, existing ones updated or left as they are; the report lists each rejected row with its
 * row number, key and what is wrong with which field. The server reads both formats.
 */
import { useState } from 'react';
import { Alert, App, Button, Flex, Form, Modal, Radio, Table, Typography, Upload } from 'antd';
import { InboxOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LIBRARY_COLUMNS, type ImportReportDto } from '@sluice/shared/data-define.schema';
import { errorMessage } from '../../../lib/form-errors';
import { useImportLibrary } from '../api/data-defines-api';

const IMPORT_LIMIT = 5 * 1024 * 1024;

export function ImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File>();
  const [mode, setMode] = useState<'update' | 'skip'>('update');
  const [problem, setProblem] = useState<string>();
  const [report, setReport] = useState<{ data: ImportReportDto; message: string }>();
  const importing = useImportLibrary();

  const close = () => {
    setFile(undefined);
    setReport(undefined);
    setProblem(undefined);
    onClose();
  };

  const submit = () => {
    if (!file) {
      setProblem(t('dataDefines.importPickFile'));
      return;
    }
    importing.mutate(
      { file, mode },
      {
        onSuccess: (response) => {
          setReport({ data: response.data, message: response.message });
          void message.success(response.message);
        },
        onError: (error) => {
          setProblem(errorMessage(error));
        },
      },
    );
  };

  const rejected = report?.data.Rejected ?? [];

  return (
    <Modal
      open={open}
      title={t('dataDefines.importTitle')}
      onCancel={close}
      destroyOnHidden
      width={720}
      footer={
        report ? (
          <Button type="primary" onClick={close}>
            {t('common.close')}
          </Button>
        ) : (
          <Flex gap={8} justify="flex-end">
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button type="primary" loading={importing.isPending} onClick={submit}>
              {t('dataDefines.importStart')}
            </Button>
          </Flex>
        )
      }
    >
      {report ? (
        <Flex vertical gap={12}>
          <Alert type={rejected.length > 0 ? 'warning' : 'success'} showIcon title={report.message} />
          {rejected.length > 0 && (
            <>
              <Typography.Title level={3} style={{ fontSize: 16, margin: 0 }}>
                {t('dataDefines.rejectedRows', { count: rejected.length })}
              </Typography.Title>
              <Table
                size="small"
                rowKey={(row) => `${String(row.Row)}-${row.DataKey}`}
                pagination={rejected.length > 10 ? { pageSize: 10, size: 'small' } : false}
                dataSource={rejected}
                scroll={{ x: 'max-content' }}
                columns={[
                  { key: 'Row', title: t('dataDefines.importLine'), dataIndex: 'Row', width: 70 },
                  { key: 'DataKey', title: t('dataDefines.dataKey'), dataIndex: 'DataKey', render: (key: string) => key || '—' },
                  {
                    key: 'Errors',
                    title: t('dataDefines.importProblems'),
                    render: (_: unknown, row: ImportReportDto['Rejected'][number]) => (
                      <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                        {row.Errors.map((e) => (
                          <li key={`${e.field}-${e.message}`}>
                            <Typography.Text strong>{e.field}</Typography.Text>: {e.message}
                          </li>
                        ))}
                      </ul>
                    ),
                  },
                ]}
              />
            </>
          )}
        </Flex>
      ) : (
        <Form layout="vertical" onFinish={submit}>
          <Typography.Paragraph type="secondary">
            {t('dataDefines.importHint', { columns: LIBRARY_COLUMNS.join(', ') })}
          </Typography.Paragraph>
          <Form.Item label={t('dataDefines.importFile')} required validateStatus={problem ? 'error' : undefined} help={problem}>
            <Upload.Dragger
              accept=".csv,.txt,.xlsx,text/csv,text/plain,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              maxCount={1}
              fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
              beforeUpload={(picked) => {
                if (picked.size > IMPORT_LIMIT) {
                  setProblem(t('uploads.tooLargeLimit', { limit: '5 MB' }));
                } else {
                  setFile(picked);
                  setProblem(undefined);
                }
                return false;
              }}
              onRemove={() => {
                setFile(undefined);
              }}
            >
              <p className="ant-upload-drag-icon">
                <InboxOutlined aria-hidden />
              </p>
              <p className="ant-upload-text">{t('uploads.dropOrPick')}</p>
            </Upload.Dragger>
          </Form.Item>
          <Form.Item label={t('dataDefines.importMode')}>
            <Radio.Group
              value={mode}
              onChange={(event) => {
                setMode(event.target.value as 'update' | 'skip');
              }}
              options={[
                { value: 'update', label: t('dataDefines.importUpdate') },
                { value: 'skip', label: t('dataDefines.importSkip') },
              ]}
            />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}
