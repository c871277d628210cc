/**
 * A dialog uploading one file with a few fields (an app package with its version, a firmware
 * file with its version and role, a type image): the file is checked here first (type and size,
 * spec §5), the fields with their rules, then it is sent with a progress bar; the upload can be
 * cancelled. The server's field errors land on their fields, other errors above the file.
 */
import { useRef, useState, type ReactNode } from 'react';
import { Alert, App, Button, Form, Modal, Progress, Typography, Upload } from 'antd';
import { InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { UploadProgress } from '../../lib/api-transfer';
import { applyServerFieldErrors, errorMessage } from '../../lib/form-errors';

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${String(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`;
  if (bytes >= 1024) return `${String(Math.round(bytes / 1024))} KB`;
  return `${String(bytes)} B`;
}

export interface FileUploadDialogProps {
  open: boolean;
  title: string;
  onClose: () => void;
  /** The file input's accept attribute. */
  accept: string;
  maxBytes: number;
  /** Names the accepted kinds in the hint and the wrong-type message ('APK', 'png, jpeg, …'). */
  kindsLabel: string;
  /** Whether the file is of an accepted kind (by its name or type). */
  isAccepted: (file: File) => boolean;
  /** Form items of the fields sent with the file. */
  children?: ReactNode;
  initialValues?: Record<string, unknown>;
  /** Names of the fields, for the server's field errors. */
  fieldNames?: string[];
  /** Sends the file and the fields; answers the server's message. */
  onUpload: (
    file: File,
    values: Record<string, unknown>,
    onProgress: (progress: UploadProgress) => void,
    signal: AbortSignal,
  ) => Promise<string>;
}

export function FileUploadDialog({
  open,
  title,
  onClose,
  accept,
  maxBytes,
  kindsLabel,
  isAccepted,
  children,
  initialValues,
  fieldNames = [],
  onUpload,
}: FileUploadDialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, unknown>>();
  const [file, setFile] = useState<File>();
  const [problem, setProblem] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [sending, setSending] = useState(false);
  const abort = useRef<AbortController | undefined>(undefined);

  const reset = () => {
    setFile(undefined);
    setProblem(undefined);
    setProgress(undefined);
    setSending(false);
  };
  const close = () => {
    abort.current?.abort();
    reset();
    onClose();
  };

  const pick = (picked: File) => {
    if (!isAccepted(picked)) {
      setProblem(t('uploads.wrongType', { types: kindsLabel }));
      return;
    }
    if (picked.size > maxBytes) {
      setProblem(t('uploads.tooLargeLimit', { limit: formatBytes(maxBytes) }));
      return;
    }
    setProblem(undefined);
    setFile(picked);
  };

  const submit = async (values: Record<string, unknown>) => {
    if (!file) {
      setProblem(t('uploads.pickFile'));
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setSending(true);
    setProgress(0);
    try {
      const answer = await onUpload(
        file,
        values,
        (p) => {
          setProgress(p.total > 0 ? Math.floor((p.loaded / p.total) * 100) : 0);
        },
        controller.signal,
      );
      void message.success(answer || t('uploads.done'));
      reset();
      onClose();
    } catch (error) {
      setSending(false);
      setProgress(undefined);
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (!applyServerFieldErrors(form, error, fieldNames)) setProblem(errorMessage(error));
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={t('uploads.upload')}
      cancelText={t('common.cancel')}
      onOk={() => {
        form.submit();
      }}
      onCancel={close}
      confirmLoading={sending}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form form={form} layout="vertical" initialValues={initialValues} onFinish={(values) => void submit(values)}>
        {children}
        <Form.Item label={t('uploads.file')} required>
          <Upload.Dragger
            accept={accept}
            maxCount={1}
            disabled={sending}
            fileList={file ? [{ uid: 'file', name: `${file.name} (${formatBytes(file.size)})`, status: 'done' }] : []}
            beforeUpload={(picked) => {
              pick(picked);
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
            <p className="ant-upload-hint">{t('uploads.limits', { types: kindsLabel, limit: formatBytes(maxBytes) })}</p>
          </Upload.Dragger>
        </Form.Item>
        {problem && <Alert type="error" showIcon role="alert" title={problem} style={{ marginBottom: 12 }} />}
        {progress !== undefined && (
          <div>
            <Typography.Text type="secondary" id="upload-progress-label">
              {t('uploads.sending')}
            </Typography.Text>
            <Progress percent={progress} aria-labelledby="upload-progress-label" status={sending ? 'active' : undefined} />
          </div>
        )}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}

/** A toolbar button that opens a FileUploadDialog titled by its label. */
export function FileUploadButton({
  label,
  ...dialog
}: Omit<FileUploadDialogProps, 'open' | 'title' | 'onClose'> & { label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="primary"
        icon={<UploadOutlined aria-hidden />}
        onClick={() => {
          setOpen(true);
        }}
      >
        {label}
      </Button>
      <FileUploadDialog
        {...dialog}
        open={open}
        title={label}
        onClose={() => {
          setOpen(false);
        }}
      />
    </>
  );
}
